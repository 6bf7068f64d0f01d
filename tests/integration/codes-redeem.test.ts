import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { code, codeAttempt, codeRedemption } from '#app/platform/db/schema.ts'
import { RULES } from '#app/platform/rate-limit.server.ts'
import { formatCode } from '#app/features/codes/code-format.ts'
import { claimReservation, redeemForMember, reserveForVisitor } from '#app/features/codes/redeem.server.ts'
import { releaseExpiredReservations } from '#app/features/codes/reservations.server.ts'
import { redeemFromRequest } from '#app/features/codes/redeem-request.server.ts'
import { CODE_RETENTION, REDEEM_FLOOR_MS } from '#app/features/codes/rules.ts'
import { purgeCodeData } from '#app/features/codes/purge.server.ts'
import { databaseKind } from '../support/database.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { campaignWithCodes, members } from '../support/codes.ts'
import { formPost } from '../support/requests.ts'

/*
 * Redemption on a real database: the double-spend proof (many requests at once on one code) and
 * the brute-force proof (lockouts per address and per account, the same time for every refusal).
 */
const kind = databaseKind()
let env: TestPlatform
const db = () => env.platform.database.db

beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})

const usesOf = async (value: string) => (await db().select({ uses: code.uses }).from(code).where(eq(code.code, value)))[0]!.uses
const grantsOf = async (value: string) =>
	(
		await db()
			.select({ n: sql<number>`count(*)::int` })
			.from(codeRedemption)
			.where(eq(codeRedemption.code, value))
	)[0]!.n

describe(`code redemption on ${kind}`, () => {
	it('gives exactly one grant when 1,000 members redeem a single-use code at once', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		const people = await members(db(), 1000, 'foule')
		const results = await Promise.all(people.map((id) => redeemForMember(db(), codes[0]!, id)))
		const outcomes = results.map((r) => r.outcome)
		expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1)
		expect(outcomes.filter((o) => o === 'used_up')).toHaveLength(999)
		expect(await usesOf(codes[0]!)).toBe(1)
		expect(await grantsOf(codes[0]!)).toBe(1)
		// A thousand transactions on one core: what is checked is who wins, not how fast.
	}, 90_000)

	it('gives exactly five grants for a five-use code, whatever the crowd', async () => {
		const { codes } = await campaignWithCodes(db(), 1, { usesPerCode: 5 })
		const people = await members(db(), 300, 'cinq')
		const results = await Promise.all(people.map((id) => redeemForMember(db(), codes[0]!, id)))
		expect(results.filter((r) => r.outcome === 'granted')).toHaveLength(5)
		expect(await usesOf(codes[0]!)).toBe(5)
		expect(await grantsOf(codes[0]!)).toBe(5)
	})

	it('counts one use when the same member sends the same code many times at once', async () => {
		const { codes } = await campaignWithCodes(db(), 1, { usesPerCode: 3 })
		const [me] = await members(db(), 1, 'double')
		const results = await Promise.all(Array.from({ length: 50 }, () => redeemForMember(db(), codes[0]!, me!)))
		expect(results.filter((r) => r.outcome === 'granted')).toHaveLength(1)
		expect(results.filter((r) => r.outcome === 'already')).toHaveLength(49)
		expect(await usesOf(codes[0]!)).toBe(1)
	})

	it('refuses more uses than allowed in the database itself (CHECK constraint)', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		await expect(db().update(code).set({ uses: 2 }).where(eq(code.code, codes[0]!))).rejects.toThrow()
	})

	it('says why a code does not work: unknown, not yet, expired, paused, revoked, used up', async () => {
		const [me] = await members(db(), 1, 'raisons')
		const now = new Date()
		const later = await campaignWithCodes(db(), 1, { startsAt: new Date(now.getTime() + 86_400_000) })
		const over = await campaignWithCodes(db(), 1, { endsAt: new Date(now.getTime() - 1000) })
		const paused = await campaignWithCodes(db(), 1, { status: 'paused' })
		const revoked = await campaignWithCodes(db(), 1)
		await db().update(code).set({ revokedAt: now }).where(eq(code.code, revoked.codes[0]!))
		const used = await campaignWithCodes(db(), 1)
		const [other] = await members(db(), 1, 'autre')
		await redeemForMember(db(), used.codes[0]!, other!)
		expect((await redeemForMember(db(), 'ABCDEFGHJKMN', me!)).outcome).toBe('unknown')
		expect((await redeemForMember(db(), later.codes[0]!, me!)).outcome).toBe('not_yet')
		expect((await redeemForMember(db(), over.codes[0]!, me!)).outcome).toBe('expired')
		expect((await redeemForMember(db(), paused.codes[0]!, me!)).outcome).toBe('paused')
		expect((await redeemForMember(db(), revoked.codes[0]!, me!)).outcome).toBe('revoked')
		expect((await redeemForMember(db(), used.codes[0]!, me!)).outcome).toBe('used_up')
	})

	it('holds a signed-out visitor’s code for them, then grants it to their account once', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		const reserved = await reserveForVisitor(db(), codes[0]!)
		expect(reserved.outcome).toBe('reserved')
		if (reserved.outcome !== 'reserved') return
		// Held: nobody else can take it meanwhile.
		const [thief, visitor] = await members(db(), 2, 'reserve')
		expect((await redeemForMember(db(), codes[0]!, thief!)).outcome).toBe('used_up')
		expect((await reserveForVisitor(db(), codes[0]!)).outcome).toBe('used_up')
		const claims = await Promise.all([claimReservation(db(), reserved.token, visitor!), claimReservation(db(), reserved.token, thief!)])
		expect(claims.map((c) => c.outcome).sort()).toEqual(['granted', 'invalid'])
		expect(await usesOf(codes[0]!)).toBe(1)
	})

	it('gives a reserved use back once the reservation has run out', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		const reserved = await reserveForVisitor(db(), codes[0]!, new Date(Date.now() - 48 * 3600_000))
		expect(reserved.outcome).toBe('reserved')
		const [late] = await members(db(), 1, 'tard')
		// The code looks used up, but the expired hold is released on the way.
		expect((await redeemForMember(db(), codes[0]!, late!)).outcome).toBe('granted')
		expect(await usesOf(codes[0]!)).toBe(1)
		if (reserved.outcome === 'reserved') expect((await claimReservation(db(), reserved.token, late!)).outcome).toBe('invalid')
		expect(await releaseExpiredReservations(db())).toBe(0)
	})

	it('purges old attempts and gives back the uses of forgotten reservations, from the policy’s constants', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		await reserveForVisitor(db(), codes[0]!)
		expect(await usesOf(codes[0]!)).toBe(1)
		const later = new Date(Date.now() + (CODE_RETENTION.reservationHours + 1) * 3600_000)
		const report = await purgeCodeData(db(), later)
		expect(report.reservations).toBeGreaterThanOrEqual(1)
		expect(await usesOf(codes[0]!)).toBe(0)
		const muchLater = new Date(Date.now() + (CODE_RETENTION.attemptDays + 1) * 86_400_000)
		await db().insert(codeAttempt).values({ id: 'ancienne-tentat', outcome: 'unknown' })
		expect((await purgeCodeData(db(), muchLater)).attempts).toBeGreaterThanOrEqual(1)
		expect(await db().select().from(codeAttempt)).toHaveLength(0)
	})
})

describe(`brute force on ${kind}`, () => {
	const attempt = (address: string, typed: string, user: { id: string } | null = null) =>
		redeemFromRequest(formPost('/redeem', { code: typed }, { clientAddress: address }), typed, user)

	it('locks an address out after its failures, then for a day, and records every attempt without the address', async () => {
		const address = '198.19.7.7'
		const short = RULES.redeemByAddress.points
		for (let i = 0; i < short; i++) expect((await attempt(address, `ZZZZ-ZZZZ-ZZ${i}${i}`)).outcome).toBe('unknown')
		const locked = await attempt(address, 'ZZZZ-ZZZZ-ZZZZ')
		expect(locked.outcome).toBe('limited')
		if (locked.outcome === 'limited') expect(locked.retryAfterSeconds).toBeGreaterThan(10 * 60)
		// A good code from a locked address is refused too: the lock is on the address.
		const { codes } = await campaignWithCodes(db(), 1)
		expect((await attempt(address, formatCode(codes[0]!))).outcome).toBe('limited')

		// The short window passes (we forget it); the failures of the day still add up to a day-long lock.
		let last = locked
		for (let i = 0; i < 40 && !(last.outcome === 'limited' && last.retryAfterSeconds > 3600); i++) {
			if (last.outcome === 'limited') await env.platform.limits.reset('redeemByAddress', address)
			last = await attempt(address, `YYYY-YYYY-YY${String(i).padStart(2, '2')}`)
		}
		expect(last.outcome).toBe('limited')
		if (last.outcome === 'limited') expect(last.retryAfterSeconds).toBeGreaterThan(12 * 3600)

		const attempts = await db().select().from(codeAttempt)
		expect(attempts.length).toBeGreaterThan(RULES.redeemByAddressDaily.points)
		expect(Object.keys(attempts[0]!).sort()).toEqual(['at', 'campaignId', 'id', 'outcome'])
		const stored = JSON.stringify(attempts)
		expect(stored).not.toContain(address)
	})

	it('limits an account across addresses', async () => {
		const [me] = await members(db(), 1, 'compte')
		for (let i = 0; i < RULES.redeemByAccount.points; i++)
			expect((await attempt(`198.19.8.${i}`, 'QQQQ-QQQQ-QQQQ', { id: me! })).outcome).toBe('unknown')
		expect((await attempt('198.19.9.1', 'QQQQ-QQQQ-QQQQ', { id: me! })).outcome).toBe('limited')
	})

	it('does not count successes, so a fan with many cards is never locked out', async () => {
		const { codes } = await campaignWithCodes(db(), RULES.redeemByAddress.points + 5)
		const [fan] = await members(db(), 1, 'collection')
		for (const value of codes) expect((await attempt('198.19.10.1', value, { id: fan! })).outcome).toBe('granted')
	})

	it('never counts a member’s own redeem against them: 300 at once give one grant, the rest « already », no lockout', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		const [fan] = await members(db(), 1, 'rafale')
		const address = '198.19.12.1'
		const results = await Promise.all(Array.from({ length: 300 }, () => attempt(address, formatCode(codes[0]!), { id: fan! })))
		const count = (name: string) => results.filter((r) => r.outcome === name).length
		expect({ granted: count('granted'), already: count('already') }).toEqual({ granted: 1, already: 299 })
		expect(await usesOf(codes[0]!)).toBe(1)
		// Nothing was held against them: a fresh code and a wrong one are answered as such.
		const { codes: more } = await campaignWithCodes(db(), 1)
		expect((await attempt(address, more[0]!, { id: fan! })).outcome).toBe('granted')
		expect((await attempt(address, 'VVVV-VVVV-VVVV', { id: fan! })).outcome).toBe('unknown')
	})

	it('says « already » to the member whose other request took the last use a moment before (not « used up »)', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		const [fan] = await members(db(), 1, 'dernier')
		const results = await Promise.all(Array.from({ length: 20 }, () => redeemForMember(db(), codes[0]!, fan!)))
		expect(results.filter((r) => r.outcome === 'granted')).toHaveLength(1)
		expect(results.filter((r) => r.outcome === 'already')).toHaveLength(19)
	})

	it('answers a code the member already holds even while they are locked out, without counting it', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		const [fan] = await members(db(), 1, 'verrou')
		const address = '198.19.13.1'
		expect((await attempt(address, codes[0]!, { id: fan! })).outcome).toBe('granted')
		for (let i = 0; i < RULES.redeemByAccount.points; i++) await attempt(address, `TTTT-TTTT-TT${i}${i}`, { id: fan! })
		expect((await attempt(address, 'TTTT-TTTT-TTTT', { id: fan! })).outcome).toBe('limited')
		for (let i = 0; i < 5; i++) expect((await attempt(address, codes[0]!, { id: fan! })).outcome).toBe('already')
		// A code they do not hold stays refused during the lockout: no oracle for guesses.
		const { codes: other } = await campaignWithCodes(db(), 1)
		expect((await attempt(address, other[0]!, { id: fan! })).outcome).toBe('limited')
	})

	it('answers an unknown code and a used one in the same time', async () => {
		const { codes } = await campaignWithCodes(db(), 1)
		const [owner] = await members(db(), 1, 'proprio')
		await redeemForMember(db(), codes[0]!, owner!)
		const time = async (typed: string, i: number) => {
			const started = performance.now()
			await attempt(`198.19.11.${i}`, typed)
			return performance.now() - started
		}
		const unknown: number[] = []
		const used: number[] = []
		for (let i = 0; i < 8; i++) {
			unknown.push(await time('WWWW-WWWW-WWWW', i * 2))
			used.push(await time(codes[0]!, i * 2 + 1))
		}
		const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
		expect(median(unknown)).toBeGreaterThanOrEqual(REDEEM_FLOOR_MS - 1)
		expect(median(used)).toBeGreaterThanOrEqual(REDEEM_FLOOR_MS - 1)
		expect(Math.abs(median(unknown) - median(used))).toBeLessThan(25)
	})
})
