import { setTimeout as sleep } from 'node:timers/promises'
import type { RedeemOutcome } from '#app/platform/db/schema.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { clientAddressOf, type RuleName } from '#app/platform/rate-limit.server.ts'
import { normalizeCode } from './code-format.ts'
import { ownedCampaign, recordAttempt, redeemForMember, reserveForVisitor } from './redeem.server.ts'
import { REDEEM_FLOOR_MS } from './rules.ts'

export type RedeemAnswer =
	| { outcome: 'granted' | 'already'; campaignId: string }
	| { outcome: 'reserved'; campaignId: string; token: string }
	| { outcome: 'limited'; retryAfterSeconds: number }
	| { outcome: Exclude<RedeemOutcome, 'granted' | 'already' | 'reserved' | 'limited'> }

/**
 * A member's attempts of one code that are under way on this instance, by member and code: the
 * same card typed (or a button pressed) many times at once is one attempt, so the copies neither
 * add up against the limits nor race each other (one grant, then « already » for the rest).
 */
const inFlight = new Map<string, Promise<RedeemAnswer>>()

/**
 * One redemption attempt from a request, whoever sends it (the /redeem form, a script): every
 * attempt counts against the client's address (and the member's account) in two tiers — a short
 * lockout, then a day-long one — and a success gives its point back, so only failures add up.
 * A member typing a code they already hold is answered at once, outside the limits (it tells them
 * nothing they do not know), even during a lockout.
 * Every answer takes at least REDEEM_FLOOR_MS, so an unknown code and a used one look alike in
 * time. The attempt is recorded with its outcome and time only.
 */
export async function redeemFromRequest(request: Request, typed: string, user: { id: string } | null): Promise<RedeemAnswer> {
	const started = performance.now()
	const normalised = normalizeCode(typed)
	let answer: RedeemAnswer
	if (user && normalised) {
		const key = `${user.id}\n${normalised}`
		let attempt = inFlight.get(key)
		const leader = !attempt
		if (!attempt) {
			attempt = attemptOnce(request, normalised, user).finally(() => inFlight.delete(key))
			inFlight.set(key, attempt)
		}
		answer = await attempt
		// The copies of a granted attempt: the code is theirs now.
		if (!leader && answer.outcome === 'granted') answer = { outcome: 'already', campaignId: answer.campaignId }
	} else {
		answer = await attemptOnce(request, normalised, user)
	}
	const elapsed = performance.now() - started
	if (elapsed < REDEEM_FLOOR_MS) await sleep(REDEEM_FLOOR_MS - elapsed)
	return answer
}

async function attemptOnce(request: Request, normalised: string | null, user: { id: string } | null): Promise<RedeemAnswer> {
	const { database, limits } = await getPlatform()
	const db = database.db
	if (user && normalised) {
		const owned = await ownedCampaign(db, normalised, user.id)
		if (owned) {
			await recordAttempt(db, 'already', owned)
			return { outcome: 'already', campaignId: owned }
		}
	}
	const checks: [RuleName, string][] = [
		['redeemByAddress', clientAddressOf(request)],
		['redeemByAddressDaily', clientAddressOf(request)],
	]
	if (user) checks.push(['redeemByAccount', user.id], ['redeemByAccountDaily', user.id])

	let answer: RedeemAnswer | null = null
	const consumed: [RuleName, string][] = []
	for (const [rule, key] of checks) {
		const result = await limits.consume(rule, key)
		if (!result.ok) {
			answer = { outcome: 'limited', retryAfterSeconds: result.retryAfterSeconds }
			break
		}
		consumed.push([rule, key])
	}
	if (!answer) {
		if (!normalised) answer = { outcome: 'invalid' }
		else {
			const result = user ? await redeemForMember(db, normalised, user.id) : await reserveForVisitor(db, normalised)
			answer = result as RedeemAnswer
		}
	}
	const succeeded = answer.outcome === 'granted' || answer.outcome === 'already' || answer.outcome === 'reserved'
	if (succeeded || answer.outcome === 'limited') for (const [rule, key] of consumed) await limits.refund(rule, key)
	await recordAttempt(db, answer.outcome, 'campaignId' in answer ? answer.campaignId : null)
	return answer
}
