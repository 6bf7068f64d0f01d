import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { getRealtime } from '#app/platform/platform.server.ts'
import { STATS_TOPIC } from '#app/features/stats/topics.ts'
import { code, codeAttempt, codeBatch, codeCampaign, codeRedemption, type RedeemOutcome } from '#app/platform/db/schema.ts'
import { CODE_RETENTION } from './rules.ts'
import { hashToken, newId, newLinkToken } from '#app/platform/random-token.server.ts'
import { releaseExpiredReservations, type Executor } from './reservations.server.ts'

/*
 * Redemption. A use is taken by one conditional UPDATE (`uses < max_uses`) in the same transaction
 * as the row that records it: PostgreSQL re-checks the condition after waiting for a concurrent
 * update of the same code, so N simultaneous requests take at most `max_uses` uses, and the
 * table's CHECK constraint refuses anything beyond in any case.
 */

export type CodeState = 'ok' | 'unknown' | 'not_yet' | 'expired' | 'used_up' | 'revoked' | 'paused'

export interface FoundCode {
	code: string
	campaignId: string
	maxUses: number
	uses: number
	revoked: boolean
	campaign: { status: 'active' | 'paused'; startsAt: Date | null; endsAt: Date | null }
}

export async function findCode(db: Db, normalised: string): Promise<FoundCode | null> {
	const [row] = await db
		.select({
			code: code.code,
			campaignId: code.campaignId,
			maxUses: code.maxUses,
			uses: code.uses,
			codeRevokedAt: code.revokedAt,
			batchRevokedAt: codeBatch.revokedAt,
			status: codeCampaign.status,
			startsAt: codeCampaign.startsAt,
			endsAt: codeCampaign.endsAt,
		})
		.from(code)
		.innerJoin(codeCampaign, eq(codeCampaign.id, code.campaignId))
		.innerJoin(codeBatch, eq(codeBatch.id, code.batchId))
		.where(eq(code.code, normalised))
		.limit(1)
	if (!row) return null
	return {
		code: row.code,
		campaignId: row.campaignId,
		maxUses: row.maxUses,
		uses: row.uses,
		revoked: Boolean(row.codeRevokedAt ?? row.batchRevokedAt),
		campaign: { status: row.status, startsAt: row.startsAt, endsAt: row.endsAt },
	}
}

/** The code's state before any use is taken (used up is decided by the update itself). */
export function stateOf(found: FoundCode | null, now = new Date()): Exclude<CodeState, 'used_up'> {
	if (!found) return 'unknown'
	if (found.revoked) return 'revoked'
	if (found.campaign.status === 'paused') return 'paused'
	if (found.campaign.startsAt && found.campaign.startsAt > now) return 'not_yet'
	if (found.campaign.endsAt && found.campaign.endsAt <= now) return 'expired'
	return 'ok'
}

function isUniqueViolation(error: unknown): boolean {
	for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
		if (e.code === '23505') return true
	}
	return false
}

/** Takes one use of a code if one is left (and not revoked); false otherwise. */
async function takeUse(tx: Executor, normalised: string): Promise<boolean> {
	const taken = await tx
		.update(code)
		.set({ uses: sql`${code.uses} + 1` })
		.where(and(eq(code.code, normalised), lt(code.uses, code.maxUses), isNull(code.revokedAt)))
		.returning({ code: code.code })
	return taken.length === 1
}

/** Takes a use, freeing expired reservations of this code first when none is left. */
async function takeUseOrRelease(db: Db, normalised: string, record: (tx: Executor) => Promise<void>): Promise<boolean> {
	for (let attempt = 0; attempt < 2; attempt++) {
		const done = await db.transaction(async (tx) => {
			if (!(await takeUse(tx, normalised))) return false
			await record(tx)
			return true
		})
		if (done) return true
		if (attempt === 0 && (await releaseExpiredReservations(db, { code: normalised })) === 0) return false
	}
	return false
}

export type GrantResult = { outcome: Extract<RedeemOutcome, 'granted' | 'already'>; campaignId: string } | { outcome: CodeState }

/** The campaign of this code when the member already holds a use of it (one indexed lookup). */
export async function ownedCampaign(db: Db, normalised: string, userId: string): Promise<string | null> {
	const [mine] = await db
		.select({ campaignId: codeRedemption.campaignId })
		.from(codeRedemption)
		.where(and(eq(codeRedemption.code, normalised), eq(codeRedemption.userId, userId)))
		.limit(1)
	return mine?.campaignId ?? null
}

/** Grants one use of the code to a member, at once. A member redeeming the same code twice keeps one use. */
export async function redeemForMember(db: Db, normalised: string, userId: string, now = new Date()): Promise<GrantResult> {
	const found = await findCode(db, normalised)
	const state = stateOf(found, now)
	if (state !== 'ok' || !found) return { outcome: state }
	if (await ownedCampaign(db, normalised, userId)) return { outcome: 'already', campaignId: found.campaignId }
	try {
		const granted = await takeUseOrRelease(db, normalised, async (tx) => {
			await tx.insert(codeRedemption).values({
				id: newId(),
				code: normalised,
				campaignId: found.campaignId,
				userId,
				status: 'granted',
				grantedAt: now,
			})
		})
		if (granted) return { outcome: 'granted', campaignId: found.campaignId }
		// No use left: perhaps this very member's other request took the last one a moment ago (its
		// update held the row until it committed, so its grant is visible now).
		return (await ownedCampaign(db, normalised, userId)) ? { outcome: 'already', campaignId: found.campaignId } : { outcome: 'used_up' }
	} catch (error) {
		// The same member, twice at once: the unique index kept one; the other's use was rolled back.
		if (isUniqueViolation(error)) return { outcome: 'already', campaignId: found.campaignId }
		throw error
	}
}

export type ReserveResult = { outcome: 'reserved'; campaignId: string; token: string; until: Date } | { outcome: CodeState }

/** Holds one use of the code for a signed-out visitor, behind a token only they receive. */
export async function reserveForVisitor(db: Db, normalised: string, now = new Date()): Promise<ReserveResult> {
	const found = await findCode(db, normalised)
	const state = stateOf(found, now)
	if (state !== 'ok' || !found) return { outcome: state }
	const { token, hash } = newLinkToken()
	const until = new Date(now.getTime() + CODE_RETENTION.reservationHours * 3600_000)
	const reserved = await takeUseOrRelease(db, normalised, async (tx) => {
		await tx.insert(codeRedemption).values({
			id: newId(),
			code: normalised,
			campaignId: found.campaignId,
			status: 'reserved',
			tokenHash: hash,
			reservedUntil: until,
		})
	})
	return reserved ? { outcome: 'reserved', campaignId: found.campaignId, token, until } : { outcome: 'used_up' }
}

/** The campaign a reservation token stands for, while it is held. */
export async function findReservation(db: Db, token: string): Promise<{ campaignId: string; code: string } | null> {
	const [row] = await db
		.select({ campaignId: codeRedemption.campaignId, code: codeRedemption.code })
		.from(codeRedemption)
		.where(and(eq(codeRedemption.tokenHash, hashToken(token)), eq(codeRedemption.status, 'reserved')))
		.limit(1)
	return row ?? null
}

export type ClaimResult = { outcome: 'granted' | 'already'; campaignId: string } | { outcome: 'invalid' }

/** Turns a reservation into a grant to this member (once: the token is spent with it). */
export async function claimReservation(db: Db, token: string, userId: string, now = new Date()): Promise<ClaimResult> {
	const hash = hashToken(token)
	try {
		const [claimed] = await db
			.update(codeRedemption)
			.set({ status: 'granted', userId, grantedAt: now, tokenHash: null, reservedUntil: null })
			.where(and(eq(codeRedemption.tokenHash, hash), eq(codeRedemption.status, 'reserved')))
			.returning({ campaignId: codeRedemption.campaignId })
		return claimed ? { outcome: 'granted', campaignId: claimed.campaignId } : { outcome: 'invalid' }
	} catch (error) {
		if (!isUniqueViolation(error)) throw error
		// This member already had this code: give the reserved use back.
		return db.transaction(async (tx) => {
			const [dropped] = await tx
				.delete(codeRedemption)
				.where(and(eq(codeRedemption.tokenHash, hash), eq(codeRedemption.status, 'reserved')))
				.returning({ code: codeRedemption.code, campaignId: codeRedemption.campaignId })
			if (!dropped) return { outcome: 'invalid' as const }
			await tx
				.update(code)
				.set({ uses: sql`greatest(${code.uses} - 1, 0)` })
				.where(eq(code.code, dropped.code))
			return { outcome: 'already' as const, campaignId: dropped.campaignId }
		})
	}
}

/** Keeps the outcome and the time of an attempt (never who, never from where). */
export async function recordAttempt(db: Db, outcome: RedeemOutcome, campaignId: string | null = null): Promise<void> {
	await db.insert(codeAttempt).values({ id: newId(), outcome, campaignId })
	if (outcome === 'granted') await announceRedemption()
}

/** Tells an open stats screen, on any instance, that a code was redeemed (a lost signal costs nothing). */
export async function announceRedemption(): Promise<void> {
	await (await getRealtime()).publish(STATS_TOPIC, { source: 'codes' }).catch(() => {})
}
