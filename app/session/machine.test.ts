import { describe, expect, it, vi } from 'vitest'
import type { AuthUser, Profile } from '#app/features/accounts/types.ts'
import { createSessionMachine, PROFILE_ERROR_MESSAGE, type SessionState } from './machine.ts'

const ada: AuthUser = { id: 'u-ada', name: 'Ada', email: 'ada@exemple.fr', emailVerified: true, image: null, role: 'user' }
const bob: AuthUser = { id: 'u-bob', name: 'Bob', email: 'bob@exemple.fr', emailVerified: false, image: null, role: 'admin' }

function profileOf(user: AuthUser, city: string | null = null): Profile {
	const { id, name, email, emailVerified, image, role } = user
	return { id, name, email, emailVerified, image, role, city, createdAt: '2026-01-01T00:00:00.000Z' }
}

/** A promise settled from the outside: a profile fetch that answers when the test says so. */
function deferred<T>() {
	let resolve!: (value: T) => void
	let reject!: (error: unknown) => void
	const promise = new Promise<T>((res, rej) => {
		resolve = res
		reject = rej
	})
	return { promise, resolve, reject }
}

function setup(fetchProfile: () => Promise<Profile>, initial?: SessionState) {
	const logError = vi.fn<(message: string, error: unknown) => void>()
	const fetch = vi.fn(fetchProfile)
	const machine = createSessionMachine({ fetchProfile: fetch, logError }, initial)
	const seen: SessionState[] = []
	machine.subscribe((state) => seen.push(state))
	return { machine, fetch, logError, seen }
}

describe('session machine (seed section 4)', () => {
	it('starts UNKNOWN', () => {
		const { machine, fetch } = setup(async () => profileOf(ada))
		expect(machine.getState()).toEqual({ status: 'UNKNOWN' })
		expect(fetch).not.toHaveBeenCalled()
	})

	it('on a signed-in user, fetches the profile first, then becomes SIGNED_IN with user and profile', async () => {
		const pending = deferred<Profile>()
		const { machine, fetch, seen } = setup(() => pending.promise)
		const done = machine.authChanged(ada)
		// The fetch is under way and nothing has changed yet.
		expect(fetch).toHaveBeenCalledTimes(1)
		expect(machine.getState()).toEqual({ status: 'UNKNOWN' })
		expect(seen).toEqual([])
		pending.resolve(profileOf(ada, 'Lyon'))
		await done
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: ada, profile: profileOf(ada, 'Lyon') })
		expect(seen).toEqual([{ status: 'SIGNED_IN', user: ada, profile: profileOf(ada, 'Lyon') }])
	})

	it('logs a failed profile fetch as "Error fetching user data:" and leaves the state as it was', async () => {
		const failure = new Error('GET /api/me answered 503')
		const { machine, logError, seen } = setup(() => Promise.reject(failure))
		await machine.authChanged(ada)
		expect(PROFILE_ERROR_MESSAGE).toBe('Error fetching user data:')
		expect(logError).toHaveBeenCalledExactlyOnceWith('Error fetching user data:', failure)
		expect(machine.getState()).toEqual({ status: 'UNKNOWN' })
		expect(seen).toEqual([])
	})

	it('keeps a SIGNED_IN state when signing in another user fails to fetch', async () => {
		const { machine, logError } = setup(() => Promise.reject(new Error('down')), {
			status: 'SIGNED_IN',
			user: ada,
			profile: profileOf(ada),
		})
		await machine.authChanged(bob)
		expect(logError).toHaveBeenCalledOnce()
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: ada, profile: profileOf(ada) })
	})

	it('logs to the console by default, with exactly « Error fetching user data: »', async () => {
		const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
		try {
			const failure = new Error('boom')
			const machine = createSessionMachine({ fetchProfile: () => Promise.reject(failure) })
			await machine.authChanged(ada)
			expect(consoleError).toHaveBeenCalledExactlyOnceWith('Error fetching user data:', failure)
		} finally {
			consoleError.mockRestore()
		}
	})

	it('on no user, becomes SIGNED_OUT without fetching anything', async () => {
		const { machine, fetch, seen } = setup(async () => profileOf(ada), {
			status: 'SIGNED_IN',
			user: ada,
			profile: profileOf(ada),
		})
		await machine.authChanged(null)
		expect(fetch).not.toHaveBeenCalled()
		expect(machine.getState()).toEqual({ status: 'SIGNED_OUT' })
		expect(seen).toEqual([{ status: 'SIGNED_OUT' }])
	})

	it('goes from UNKNOWN to SIGNED_OUT too', async () => {
		const { machine } = setup(async () => profileOf(ada))
		await machine.authChanged(null)
		expect(machine.getState()).toEqual({ status: 'SIGNED_OUT' })
	})

	it('refreshes the profile when SIGNED_IN', async () => {
		const profiles = [profileOf(ada, 'Lyon'), profileOf(ada, 'Brest')]
		const { machine, fetch, seen } = setup(async () => profiles.shift()!)
		await machine.authChanged(ada)
		await machine.refresh()
		expect(fetch).toHaveBeenCalledTimes(2)
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: ada, profile: profileOf(ada, 'Brest') })
		expect(seen.map((s) => s.status === 'SIGNED_IN' && s.profile.city)).toEqual(['Lyon', 'Brest'])
	})

	it.each<SessionState>([{ status: 'UNKNOWN' }, { status: 'SIGNED_OUT' }])('does nothing on refresh when $status', async (initial) => {
		const { machine, fetch, seen } = setup(async () => profileOf(ada), initial)
		await machine.refresh()
		expect(fetch).not.toHaveBeenCalled()
		expect(machine.getState()).toEqual(initial)
		expect(seen).toEqual([])
	})

	it('logs a failed refresh and keeps the profile it had', async () => {
		let fail = false
		const failure = new Error('timeout')
		const { machine, logError } = setup(async () => {
			if (fail) throw failure
			return profileOf(ada, 'Lyon')
		})
		await machine.authChanged(ada)
		fail = true
		await machine.refresh()
		expect(logError).toHaveBeenCalledExactlyOnceWith('Error fetching user data:', failure)
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: ada, profile: profileOf(ada, 'Lyon') })
	})

	it('does not let a slow sign-in fetch overwrite a sign-out that came after it', async () => {
		const slow = deferred<Profile>()
		const { machine } = setup(() => slow.promise)
		const first = machine.authChanged(ada)
		await machine.authChanged(null)
		slow.resolve(profileOf(ada))
		await first
		expect(machine.getState()).toEqual({ status: 'SIGNED_OUT' })
	})

	it('does not let a slow fetch for one user overwrite the newer user', async () => {
		const answers = new Map([
			['u-ada', deferred<Profile>()],
			['u-bob', deferred<Profile>()],
		])
		let current = 'u-ada'
		const { machine } = setup(() => answers.get(current)!.promise)
		const forAda = machine.authChanged(ada)
		current = 'u-bob'
		const forBob = machine.authChanged(bob)
		answers.get('u-bob')!.resolve(profileOf(bob))
		await forBob
		answers.get('u-ada')!.resolve(profileOf(ada))
		await forAda
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: bob, profile: profileOf(bob) })
	})

	it('does not let a slow refresh overwrite a sign-out that came after it', async () => {
		const { machine, fetch } = setup(async () => profileOf(ada, 'Lyon'))
		await machine.authChanged(ada)
		const slow = deferred<Profile>()
		fetch.mockImplementationOnce(() => slow.promise)
		const refreshing = machine.refresh()
		await machine.authChanged(null)
		slow.resolve(profileOf(ada, 'Brest'))
		await refreshing
		expect(machine.getState()).toEqual({ status: 'SIGNED_OUT' })
	})

	it('does not let a slow refresh overwrite a newer sign-in', async () => {
		const { machine, fetch } = setup(async () => profileOf(ada, 'Lyon'))
		await machine.authChanged(ada)
		const slow = deferred<Profile>()
		fetch.mockImplementationOnce(() => slow.promise)
		const refreshing = machine.refresh()
		await machine.authChanged(bob, profileOf(bob, 'Nantes'))
		slow.resolve(profileOf(ada, 'Brest'))
		await refreshing
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: bob, profile: profileOf(bob, 'Nantes') })
	})

	it('uses a profile the server already read for this very user, without fetching', async () => {
		const { machine, fetch } = setup(async () => profileOf(ada, 'fetched'))
		await machine.authChanged(ada, profileOf(ada, 'known'))
		expect(fetch).not.toHaveBeenCalled()
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: ada, profile: profileOf(ada, 'known') })
	})

	it('ignores a known profile that belongs to someone else, and fetches', async () => {
		const { machine, fetch } = setup(async () => profileOf(bob, 'fetched'))
		await machine.authChanged(bob, profileOf(ada, 'known'))
		expect(fetch).toHaveBeenCalledOnce()
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: bob, profile: profileOf(bob, 'fetched') })
	})

	it('a known profile supersedes a slow fetch still under way', async () => {
		const slow = deferred<Profile>()
		const { machine } = setup(() => slow.promise)
		const first = machine.authChanged(ada)
		await machine.authChanged(ada, profileOf(ada, 'known'))
		slow.resolve(profileOf(ada, 'stale'))
		await first
		expect(machine.getState()).toEqual({ status: 'SIGNED_IN', user: ada, profile: profileOf(ada, 'known') })
	})

	it('stops notifying a listener once it unsubscribes', async () => {
		const machine = createSessionMachine({ fetchProfile: async () => profileOf(ada) })
		const listener = vi.fn()
		const unsubscribe = machine.subscribe(listener)
		await machine.authChanged(null)
		unsubscribe()
		await machine.authChanged(ada)
		expect(listener).toHaveBeenCalledOnce()
		expect(machine.getState().status).toBe('SIGNED_IN')
	})
})
