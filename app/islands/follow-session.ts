/*
 * The account pages and a signed-in visitor's public pages do not run React (app/hydration.ts), so
 * the session machine (app/session/) is not there to hear that another tab of the site signed in
 * or out. This island listens on the same channel (app/session/auth-client.ts) and
 * loads the page again when the signed-in person is no longer the one it was rendered for
 * (`data-follow-session` on the script: the user's id, empty when nobody): the server then sends
 * the page as it now is (a sign-in page sends a signed-in visitor on to the dashboard).
 */
import { AUTH_CHANNEL } from '#app/session/auth-client.ts'

const script = document.querySelector<HTMLScriptElement>('script[data-follow-session]')
if (script && typeof BroadcastChannel !== 'undefined') {
	const renderedFor = script.dataset.followSession ?? ''
	new BroadcastChannel(AUTH_CHANNEL).addEventListener(
		'message',
		(event: MessageEvent<{ type?: string; user?: { id?: string } | null }>) => {
			if (event.data?.type !== 'auth-changed') return
			if ((event.data.user?.id ?? '') !== renderedFor) location.reload()
		},
	)
}
