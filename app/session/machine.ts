import type { AuthUser, Profile } from '#app/features/accounts/types.ts'

/** The browser's session state: UNKNOWN, then SIGNED_IN or SIGNED_OUT. */
export type SessionState = { status: 'UNKNOWN' } | { status: 'SIGNED_IN'; user: AuthUser; profile: Profile } | { status: 'SIGNED_OUT' }

export interface SessionMachineDeps {
	/** Reads the signed-in user's profile (getCurrentUserData). */
	fetchProfile: () => Promise<Profile>
	/** Where failures go; by default `Error fetching user data:` to the console. */
	logError?: (message: string, error: unknown) => void
}

export interface SessionMachine {
	getState(): SessionState
	subscribe(listener: (state: SessionState) => void): () => void
	/**
	 * An auth-change notification. A user: fetch the profile first, then SIGNED_IN; a failed fetch
	 * is logged and the state stays as it was. No user: SIGNED_OUT. `knownProfile` is a profile the
	 * server already read for this very user in this navigation, which spares the fetch.
	 */
	authChanged(user: AuthUser | null, knownProfile?: Profile): Promise<void>
	/** Re-reads the profile, only when SIGNED_IN; a failure is logged and changes nothing. */
	refresh(): Promise<void>
}

export const PROFILE_ERROR_MESSAGE = 'Error fetching user data:'

export function createSessionMachine(deps: SessionMachineDeps, initial: SessionState = { status: 'UNKNOWN' }): SessionMachine {
	let state = initial
	const listeners = new Set<(state: SessionState) => void>()
	const logError = deps.logError ?? ((message, error) => console.error(message, error))
	// Each notification supersedes the ones before it: a slow profile fetch that comes back after a
	// newer notification must not overwrite what that newer one decided.
	let generation = 0

	function set(next: SessionState) {
		state = next
		for (const listener of listeners) listener(state)
	}

	return {
		getState: () => state,
		subscribe(listener) {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
		async authChanged(user, knownProfile) {
			const current = ++generation
			if (!user) {
				set({ status: 'SIGNED_OUT' })
				return
			}
			if (knownProfile && knownProfile.id === user.id) {
				set({ status: 'SIGNED_IN', user, profile: knownProfile })
				return
			}
			try {
				const profile = await deps.fetchProfile()
				if (current !== generation) return
				set({ status: 'SIGNED_IN', user, profile })
			} catch (error) {
				logError(PROFILE_ERROR_MESSAGE, error)
			}
		},
		async refresh() {
			if (state.status !== 'SIGNED_IN') return
			const current = generation
			const { user } = state
			try {
				const profile = await deps.fetchProfile()
				if (current !== generation || state.status !== 'SIGNED_IN' || state.user.id !== user.id) return
				set({ status: 'SIGNED_IN', user, profile })
			} catch (error) {
				logError(PROFILE_ERROR_MESSAGE, error)
			}
		},
	}
}
