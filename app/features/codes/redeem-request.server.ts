import { setTimeout as sleep } from 'node:timers/promises'
import type { RedeemOutcome } from '#app/platform/db/schema.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { clientAddressOf, type RuleName } from '#app/platform/rate-limit.server.ts'
import { normalizeCode } from './code-format.ts'
import { recordAttempt, redeemForMember, reserveForVisitor } from './redeem.server.ts'
import { REDEEM_FLOOR_MS } from './rules.ts'

export type RedeemAnswer =
	| { outcome: 'granted' | 'already'; campaignId: string }
	| { outcome: 'reserved'; campaignId: string; token: string }
	| { outcome: 'limited'; retryAfterSeconds: number }
	| { outcome: Exclude<RedeemOutcome, 'granted' | 'already' | 'reserved' | 'limited'> }

/**
 * One redemption attempt from a request, whoever sends it (the /redeem form, a script): every
 * attempt counts against the client's address (and the member's account) in two tiers — a short
 * lockout, then a day-long one — and a success gives its point back, so only failures add up.
 * Every answer takes at least REDEEM_FLOOR_MS, so an unknown code and a used one look alike in
 * time. The attempt is recorded with its outcome and time only.
 */
export async function redeemFromRequest(request: Request, typed: string, user: { id: string } | null): Promise<RedeemAnswer> {
	const started = performance.now()
	const { database, limits } = await getPlatform()
	const db = database.db
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
		const normalised = normalizeCode(typed)
		if (!normalised) answer = { outcome: 'invalid' }
		else {
			const result = user ? await redeemForMember(db, normalised, user.id) : await reserveForVisitor(db, normalised)
			answer = result as RedeemAnswer
		}
	}
	const succeeded = answer.outcome === 'granted' || answer.outcome === 'already' || answer.outcome === 'reserved'
	if (succeeded || answer.outcome === 'limited') for (const [rule, key] of consumed) await limits.refund(rule, key)
	await recordAttempt(db, answer.outcome, 'campaignId' in answer ? answer.campaignId : null)
	const elapsed = performance.now() - started
	if (elapsed < REDEEM_FLOOR_MS) await sleep(REDEEM_FLOOR_MS - elapsed)
	return answer
}
