import type { AuthUser, Profile } from '#app/features/accounts/types.ts'

/**
 * The browser side of auth-change notifications. Sign-in and sign-out happen through the site's
 * forms (server actions); when a page learns that the signed-in user changed, it `announce`s it:
 * this tab's listeners hear it at once (with the profile the server already read), and every other
 * open tab of the site hears it through a BroadcastChannel (and reads the profile itself).
 */
export type AuthListener = (user: AuthUser | null, knownProfile?: Profile) => void

export interface AuthClient {
	onAuthStateChanged(listener: AuthListener): () => void
	announce(user: AuthUser | null, knownProfile?: Profile): void
	close(): void
}

type Message = { type: 'auth-changed'; user: AuthUser | null }

export const AUTH_CHANNEL = 'band-site:auth'

export function createAuthClient(options: { channel?: BroadcastChannel | null } = {}): AuthClient {
	const listeners = new Set<AuthListener>()
	const channel =
		options.channel !== undefined ? options.channel : typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(AUTH_CHANNEL)
	const emit: AuthListener = (user, knownProfile) => {
		for (const listener of listeners) listener(user, knownProfile)
	}
	const onMessage = (event: MessageEvent<Message>) => {
		if (event.data?.type === 'auth-changed') emit(event.data.user)
	}
	channel?.addEventListener('message', onMessage as EventListener)
	return {
		onAuthStateChanged(listener) {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
		announce(user, knownProfile) {
			emit(user, knownProfile)
			channel?.postMessage({ type: 'auth-changed', user } satisfies Message)
		},
		close() {
			channel?.removeEventListener('message', onMessage as EventListener)
			channel?.close()
			listeners.clear()
		},
	}
}
