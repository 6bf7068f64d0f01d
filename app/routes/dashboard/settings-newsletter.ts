import { data } from 'react-router'
import type { Route } from './+types/settings-newsletter'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'
import { setMemberNewsletter } from '#app/features/newsletter/subscribers.server.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'

/**
 * The member's newsletter toggle (POST only): on or off, then back with a message — to the
 * dashboard's home when it was sent from there (`back`, one known value), to the settings otherwise.
 */
export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const form = await request.formData()
	const subscribe = form.get('subscribe')
	if (subscribe !== 'on' && subscribe !== 'off') throw data(null, { status: 400 })
	const back = form.get('back') === '/dashboard' ? '/dashboard#newsletter' : '/dashboard/settings#newsletter'
	const limited = await (await getPlatform()).limits.consume('settingsByAccount', user.id)
	if (!limited.ok) return redirectWithFlash(back, { type: 'error', key: 'newsletter.flash.tooMany' })
	const status = await setMemberNewsletter(await newsletterContext(), user, subscribe === 'on')
	if (status === 'active') return redirectWithFlash(back, { type: 'success', key: 'newsletter.flash.on' })
	if (status === 'pending') return redirectWithFlash(back, { type: 'success', key: 'newsletter.flash.pending' })
	return redirectWithFlash(back, { type: 'success', key: 'newsletter.flash.off' })
}

export function loader() {
	throw data(null, { status: 405 })
}
