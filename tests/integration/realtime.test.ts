import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startRealtime } from '#app/platform/realtime.server.ts'
import { databaseKind } from '../support/database.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'

/* Live updates: one topic reaches its listeners, only after commit, and (PostgreSQL) across instances. */
const kind = databaseKind()

let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})

describe(`live updates on ${kind}`, () => {
	it('delivers a message to the listeners of its topic only', async () => {
		const { realtime } = env.platform
		const heard: unknown[] = []
		const other: unknown[] = []
		const stop = realtime.subscribe('test.a', (data) => heard.push(data))
		const stopOther = realtime.subscribe('test.b', (data) => other.push(data))
		await realtime.publish('test.a', { n: 1 })
		await vi.waitFor(() => expect(heard).toEqual([{ n: 1 }]))
		expect(other).toEqual([])
		stop()
		await realtime.publish('test.a', { n: 2 })
		await realtime.publish('test.b', { n: 3 })
		await vi.waitFor(() => expect(other).toEqual([{ n: 3 }]))
		expect(heard).toEqual([{ n: 1 }])
		stopOther()
	})

	it('sends nothing from a transaction that rolls back, and sends after a commit', async () => {
		const { realtime, database } = env.platform
		const heard: unknown[] = []
		const stop = realtime.subscribe('test.tx', (data) => heard.push(data))
		await database.db
			.transaction(async (tx) => {
				await realtime.publish('test.tx', 'rolled back', tx)
				throw new Error('abort')
			})
			.catch(() => {})
		await database.db.transaction(async (tx) => {
			await realtime.publish('test.tx', 'committed', tx)
		})
		await vi.waitFor(() => expect(heard).toEqual(['committed']))
		stop()
	})

	it('refuses a payload too large for NOTIFY instead of failing in the database', async () => {
		await expect(env.platform.realtime.publish('test.big', 'x'.repeat(10_000))).rejects.toThrow(/too large/)
	})

	it.runIf(kind === 'postgres')('reaches a second instance on the same PostgreSQL', async () => {
		const second = await startRealtime(env.platform.database, env.platform.logger)
		try {
			const heard: unknown[] = []
			const stop = second.subscribe('test.cross', (data) => heard.push(data))
			await env.platform.realtime.publish('test.cross', { from: 'first' })
			await vi.waitFor(() => expect(heard).toEqual([{ from: 'first' }]))
			stop()
		} finally {
			await second.close()
		}
	})
})
