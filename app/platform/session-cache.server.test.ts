import { describe, expect, test } from 'vitest'
import { cachedForMember, cachedSession, forgetSignalled, sessionCacheKey } from './session-cache.server.ts'

/** A read that answers when told to, counting how many times it was started. */
function controlledRead<T>(values: T[]) {
	const started: ((value: T) => void)[] = []
	return {
		read: () => new Promise<T>((resolve) => started.push(resolve)),
		get count() {
			return started.length
		},
		answer(k: number) {
			started[k]!(values[k]!)
		},
	}
}

const session = (userId: string, name: string) => ({ userId, name, expiresAt: new Date(Date.now() + 3_600_000) })

describe('reads of the session memory', () => {
	test('requests arriving while a session is read wait for that read instead of starting their own', async () => {
		const db = controlledRead([session('u-herd', 'Alice')])
		const pending = Array.from({ length: 50 }, () => cachedSession('key-herd', db.read))
		expect(db.count).toBe(1)
		db.answer(0)
		const answers = await Promise.all(pending)
		expect(new Set(answers.map((a) => a?.name))).toEqual(new Set(['Alice']))
		// …and it is remembered: the next request asks nobody.
		expect((await cachedSession('key-herd', db.read))?.name).toBe('Alice')
		expect(db.count).toBe(1)
	})

	test('a request arriving after an invalidation never joins a read started before it', async () => {
		const db = controlledRead([session('u-change', 'avant'), session('u-change', 'après')])
		const before = cachedSession('key-change', db.read)
		forgetSignalled(['u-change'])
		const after = cachedSession('key-change', db.read)
		expect(db.count).toBe(2)
		db.answer(1)
		db.answer(0)
		expect((await after)?.name).toBe('après')
		expect((await before)?.name).toBe('avant')
		// The read that straddled the change is not remembered; the later one is.
		expect((await cachedSession('key-change', db.read))?.name).toBe('après')
		expect(db.count).toBe(2)
	})

	test('a failed read fails every request waiting on it, and the next request reads again', async () => {
		let calls = 0
		const failing = () => {
			calls += 1
			return Promise.reject(new Error('base indisponible'))
		}
		const results = await Promise.allSettled([cachedSession('key-fail', failing), cachedSession('key-fail', failing)])
		expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
		expect(calls).toBe(1)
		expect(await cachedSession('key-fail', async () => session('u-fail', 'revenu'))).toMatchObject({ name: 'revenu' })
	})

	test("a member's data is read once for concurrent requests, and again after it is forgotten", async () => {
		const db = controlledRead([['contenu 1'], ['contenu 1', 'contenu 2']])
		const pending = Array.from({ length: 20 }, () => cachedForMember('u-data', 'grants', db.read))
		expect(db.count).toBe(1)
		db.answer(0)
		expect(new Set((await Promise.all(pending)).map((v) => v.length))).toEqual(new Set([1]))
		forgetSignalled(['u-data'])
		const fresh = cachedForMember('u-data', 'grants', db.read)
		expect(db.count).toBe(2)
		db.answer(1)
		expect(await fresh).toHaveLength(2)
	})
})

describe('the key of a session cookie', () => {
	const cookie = 'band.session_token=abc.signature'
	test('is the same for the same session cookie, whatever other cookies come with it', () => {
		const key = sessionCacheKey(cookie)
		expect(key).toMatch(/^[\w-]{43}$/)
		expect(sessionCacheKey(`theme=dark; ${cookie}`)).toBe(key)
		expect(sessionCacheKey(`${cookie};theme=dark`)).toBe(key)
		expect(sessionCacheKey(`__Secure-band.session_token=x; ${cookie}`)).toBe(sessionCacheKey(`${cookie}; __Secure-band.session_token=x`))
	})

	test('differs with the token or its signature, and is never the token itself', () => {
		expect(sessionCacheKey('band.session_token=abc.other')).not.toBe(sessionCacheKey(cookie))
		expect(sessionCacheKey('band.session_token=abd.signature')).not.toBe(sessionCacheKey(cookie))
		expect(sessionCacheKey(cookie)).not.toContain('abc')
	})

	test('is null without a session cookie', () => {
		expect(sessionCacheKey(null)).toBeNull()
		expect(sessionCacheKey('')).toBeNull()
		expect(sessionCacheKey('theme=dark; lang=fr')).toBeNull()
		expect(sessionCacheKey('theme=session_token=x')).toBeNull()
	})
})
