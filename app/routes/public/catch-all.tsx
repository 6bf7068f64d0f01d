import { redirect } from 'react-router'
import { httpError } from '#app/platform/http-error.ts'

/** Any other path goes to the landing page. */
export function loader() {
	return redirect('/', 302)
}

/** A form sent to a path that does not exist: there is nothing to redirect it to. */
export function action() {
	throw httpError(404)
}

/**
 * Never shown (the loader redirects), but a route with a component is a page: the 404 thrown by
 * the action renders the site's French error page instead of a bare JSON answer.
 */
export default function CatchAll() {
	return null
}
