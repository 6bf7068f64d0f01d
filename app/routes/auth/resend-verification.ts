import { redirect } from 'react-router'
import type { Route } from './+types/resend-verification'
import { resendVerification } from '#app/features/accounts/auth-actions.server.ts'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'

/** « Renvoyer le lien »: a new verification mail for the signed-in member (limited per account). */
export function loader() {
	return redirect('/dashboard')
}

export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	if (user.emailVerified) return redirect('/dashboard')
	const limited = await resendVerification(request, user)
	if (limited) {
		return redirectWithFlash('/dashboard', { type: 'error', key: 'auth.flash.resendLimited', values: { wait: limited.message } })
	}
	return redirectWithFlash('/dashboard', { type: 'success', key: 'auth.flash.verificationSent', values: { email: user.email } })
}
