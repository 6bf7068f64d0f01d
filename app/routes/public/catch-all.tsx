import { data, redirect } from 'react-router'

/** Any other path goes to the landing page (the seed's rule). */
export function loader() {
	return redirect('/', 302)
}

/** A form sent to a path that does not exist: there is nothing to redirect it to. */
export function action() {
	throw data(null, { status: 404 })
}
