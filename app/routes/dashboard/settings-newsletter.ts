import { data } from 'react-router'
import type { Route } from './+types/settings-newsletter'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'
import { setMemberNewsletter } from '#app/features/newsletter/subscribers.server.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'

/** The member's newsletter toggle (POST only): on or off, then back to the settings with a message. */
export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const subscribe = (await request.formData()).get('subscribe')
	if (subscribe !== 'on' && subscribe !== 'off') throw data(null, { status: 400 })
	const limited = await (await getPlatform()).limits.consume('settingsByAccount', user.id)
	if (!limited.ok) return redirectWithFlash('/dashboard/settings#newsletter', { type: 'error', key: 'newsletter.flash.tooMany' })
	const status = await setMemberNewsletter(await newsletterContext(), user, subscribe === 'on')
	const back = '/dashboard/settings#newsletter'
	if (status === 'active') return redirectWithFlash(back, { type: 'success', key: 'newsletter.flash.on' })
	if (status === 'pending') return redirectWithFlash(back, { type: 'success', key: 'newsletter.flash.pending' })
	return redirectWithFlash(back, { type: 'success', key: 'newsletter.flash.off' })
}

export function loader() {
	throw data(null, { status: 405 })
}
