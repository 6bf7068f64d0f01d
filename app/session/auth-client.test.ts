import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AuthUser, Profile } from '#app/features/accounts/types.ts'
import { AUTH_CHANNEL, createAuthClient, type AuthClient, type AuthListener } from './auth-client.ts'

const ada: AuthUser = { id: 'u-ada', name: 'Ada', email: 'ada@exemple.fr', emailVerified: true, image: null, role: 'user' }
const adaProfile: Profile = { ...ada, city: 'Lyon', createdAt: '2026-01-01T00:00:00.000Z' }

const open: AuthClient[] = []
/** A "tab": a client on its own real BroadcastChannel (Node has them), named like the site's. */
function tab(options?: Parameters<typeof createAuthClient>[0]): AuthClient {
	const client = createAuthClient(options)
	open.push(client)
	return client
}

afterEach(() => {
	// An open BroadcastChannel keeps the worker alive.
	for (const client of open.splice(0)) client.close()
})

/** Resolves with the next notification a listener receives on that client. */
function nextNotification(client: AuthClient): Promise<Parameters<AuthListener>> {
	return new Promise((resolve) => {
		const stop = client.onAuthStateChanged((...args) => {
			stop()
			resolve(args)
		})
	})
}

describe('auth client', () => {
	it('uses the site-wide channel name', () => {
		expect(AUTH_CHANNEL).toBe('band-site:auth')
	})

	it('tells this tab’s listeners at once, with the profile the server already read', () => {
		const client = tab({ channel: null })
		const listener = vi.fn<AuthListener>()
		client.onAuthStateChanged(listener)
		client.announce(ada, adaProfile)
		expect(listener).toHaveBeenCalledExactlyOnceWith(ada, adaProfile)
		client.announce(null)
		expect(listener).toHaveBeenLastCalledWith(null, undefined)
	})

	it('stops telling a listener that unsubscribed', () => {
		const client = tab({ channel: null })
		const listener = vi.fn<AuthListener>()
		const stop = client.onAuthStateChanged(listener)
		stop()
		client.announce(ada)
		expect(listener).not.toHaveBeenCalled()
	})

	it('tells another tab through a BroadcastChannel, which then reads the profile itself', async () => {
		const here = tab()
		const there = tab()
		const heard = nextNotification(there)
		here.announce(ada, adaProfile)
		const [user, knownProfile] = await heard
		expect(user).toEqual(ada)
		// The profile stays in this tab: the other one must fetch it (the machine does, when none is given).
		expect(knownProfile).toBeUndefined()
	})

	it('tells another tab about a sign-out', async () => {
		const here = tab()
		const there = tab()
		const heard = nextNotification(there)
		here.announce(null)
		expect(await heard).toEqual([null, undefined])
	})

	it('does not echo a tab’s own announcement back to it through the channel', async () => {
		const here = tab()
		const there = tab()
		const listener = vi.fn<AuthListener>()
		here.onAuthStateChanged(listener)
		const heard = nextNotification(there)
		here.announce(ada, adaProfile)
		await heard
		// Once, locally; the channel never delivers to the instance that posted.
		expect(listener).toHaveBeenCalledExactlyOnceWith(ada, adaProfile)
	})

	it('ignores messages on the channel that are not auth changes', async () => {
		const there = tab()
		const listener = vi.fn<AuthListener>()
		there.onAuthStateChanged(listener)
		const stranger = new BroadcastChannel(AUTH_CHANNEL)
		const probe = tab()
		try {
			stranger.postMessage({ type: 'something-else', user: ada })
			stranger.postMessage('hello')
			// A real announcement after them: once it is heard, the others have been delivered too.
			const heard = nextNotification(there)
			probe.announce(null)
			await heard
			expect(listener).toHaveBeenCalledExactlyOnceWith(null, undefined)
		} finally {
			stranger.close()
		}
	})

	it('hears nothing more once closed', async () => {
		const here = tab()
		const closed = tab()
		const witness = tab()
		const listener = vi.fn<AuthListener>()
		closed.onAuthStateChanged(listener)
		closed.close()
		const heard = nextNotification(witness)
		here.announce(ada)
		await heard
		expect(listener).not.toHaveBeenCalled()
	})
})
