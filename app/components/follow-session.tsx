import { useNonce } from '#app/components/nonce.tsx'
// Built by Vite as a file of its own (docs/decisions/0027-html-first-public-pages.md); the default
// export is the file's URL, which Vite gives, not the module's own (it exports nothing).
// oxlint-disable-next-line import/default
import followSession from '#app/islands/follow-session.ts?worker&url'

/**
 * On a page without React (app/hydration.ts): follows a sign-in or sign-out made in another tab
 * (app/islands/follow-session.ts). `userId`: who the page was rendered for, '' for nobody.
 */
export function FollowSession(props: { userId: string }) {
	const nonce = useNonce()
	return <script type="module" src={followSession} data-follow-session={props.userId} nonce={nonce || undefined} />
}
