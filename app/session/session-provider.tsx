import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react'
import { useRevalidator } from 'react-router'
import type { AuthUser, Profile } from '#app/features/accounts/types.ts'
import { createAuthClient, type AuthClient } from './auth-client.ts'
import { createSessionMachine, type SessionMachine, type SessionState } from './machine.ts'

const SessionContext = createContext<SessionMachine | null>(null)

async function fetchProfile(): Promise<Profile> {
	const response = await fetch('/api/me', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
	if (!response.ok) throw new Error(`GET /api/me answered ${response.status}`)
	return (await response.json()) as Profile
}

/**
 * Holds the session machine. The server-rendered page already knows who is signed in, so the
 * machine leaves UNKNOWN before the first render and the splash never covers such a page.
 */
export function SessionProvider(props: { user: AuthUser | null; profile: Profile | null; children: ReactNode }) {
	const { user, profile } = props
	const [machine] = useState(() => {
		const created = createSessionMachine({ fetchProfile })
		void created.authChanged(user, profile ?? undefined)
		return created
	})
	const revalidator = useRevalidator()
	const revalidate = useRef(revalidator.revalidate)
	useEffect(() => {
		revalidate.current = revalidator.revalidate
	})
	const client = useRef<AuthClient | null>(null)
	// Undefined until this document has told the other tabs who it was rendered for: a sign-in or
	// sign-out may have been a plain form on a page without React (app/hydration.ts), which told nobody.
	const knownUserId = useRef<string | null | undefined>(undefined)

	// One channel per mounted provider (StrictMode mounts twice in development: each gets its own).
	useEffect(() => {
		const created = createAuthClient()
		client.current = created
		const stop = created.onAuthStateChanged((changedUser, knownProfile) => {
			// Another tab opening a page for the same person: nothing changed here.
			if (!knownProfile && (changedUser?.id ?? null) === knownUserId.current) return
			void machine.authChanged(changedUser, knownProfile)
			if (!knownProfile) {
				// Another tab signed in or out: the loaders of this page must see it too.
				knownUserId.current = changedUser?.id ?? null
				void revalidate.current()
			}
		})
		return () => {
			stop()
			created.close()
			if (client.current === created) client.current = null
		}
	}, [machine])

	// This tab's own navigations (a sign-in form, a sign-out) change what the server says; a new
	// document says it once too (see knownUserId).
	useEffect(() => {
		const id = user?.id ?? null
		if (id !== knownUserId.current) {
			knownUserId.current = id
			client.current?.announce(user, profile ?? undefined)
		} else if (user && profile) {
			void machine.authChanged(user, profile)
		}
	}, [machine, user, profile])

	return <SessionContext.Provider value={machine}>{props.children}</SessionContext.Provider>
}

function useMachine(): SessionMachine {
	const machine = useContext(SessionContext)
	if (!machine) throw new Error('useSession must be used inside <SessionProvider>')
	return machine
}

export function useSession(): SessionState {
	const machine = useMachine()
	return useSyncExternalStore(machine.subscribe, machine.getState, machine.getState)
}
