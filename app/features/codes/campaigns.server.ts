import { and, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { code, codeBatch, codeCampaign, codeCampaignFile, codeRedemption, user } from '#app/platform/db/schema.ts'
import { normalizeCode } from './code-format.ts'
import { codeCountsByCampaign } from './counts.server.ts'
import type { CampaignValues } from './forms.ts'
import { newId } from '#app/platform/random-token.server.ts'

export async function createCampaign(db: Db, values: CampaignValues, userId: string | null): Promise<string> {
	const id = newId()
	await db.insert(codeCampaign).values({ id, ...values, createdBy: userId })
	return id
}

export async function updateCampaign(db: Db, id: string, values: CampaignValues): Promise<boolean> {
	const rows = await db.update(codeCampaign).set(values).where(eq(codeCampaign.id, id)).returning({ id: codeCampaign.id })
	return rows.length === 1
}

/** Every campaign with its counts: codes generated, codes redeemed (at least once), codes revoked (counts.server.ts). */
export async function listCampaigns(db: Db) {
	const rows = await db
		.select({
			id: codeCampaign.id,
			name: codeCampaign.name,
			status: codeCampaign.status,
			startsAt: codeCampaign.startsAt,
			endsAt: codeCampaign.endsAt,
			usesPerCode: codeCampaign.usesPerCode,
			createdAt: codeCampaign.createdAt,
		})
		.from(codeCampaign)
		.orderBy(desc(codeCampaign.createdAt))
	const byId = await codeCountsByCampaign(db)
	return rows.map((row) => ({
		...row,
		generated: byId.get(row.id)?.generated ?? 0,
		redeemed: byId.get(row.id)?.redeemed ?? 0,
		revoked: byId.get(row.id)?.revoked ?? 0,
	}))
}

export async function getCampaign(db: Db, id: string) {
	const [campaign] = await db.select().from(codeCampaign).where(eq(codeCampaign.id, id))
	if (!campaign) return null
	const files = await db.select().from(codeCampaignFile).where(eq(codeCampaignFile.campaignId, id)).orderBy(codeCampaignFile.createdAt)
	const batches = await db
		.select({
			id: codeBatch.id,
			kind: codeBatch.kind,
			label: codeBatch.label,
			requested: codeBatch.requested,
			created: codeBatch.created,
			status: codeBatch.status,
			error: codeBatch.error,
			revokedAt: codeBatch.revokedAt,
			createdAt: codeBatch.createdAt,
			redeemed: sql<number>`(select count(*)::int from ${code} where ${code.batchId} = ${codeBatch.id} and ${code.uses} > 0)`,
		})
		.from(codeBatch)
		.where(eq(codeBatch.campaignId, id))
		.orderBy(desc(codeBatch.createdAt))
	return { campaign, files, batches }
}

/** One code, as the admin searches it: its state, and who redeemed it and when. */
export async function findCodeDetail(db: Db, typed: string) {
	const normalised = normalizeCode(typed)
	if (!normalised) return null
	const [row] = await db
		.select({
			code: code.code,
			uses: code.uses,
			maxUses: code.maxUses,
			revokedAt: code.revokedAt,
			batchRevokedAt: codeBatch.revokedAt,
			batchId: code.batchId,
			batchLabel: codeBatch.label,
			createdAt: code.createdAt,
			campaignId: codeCampaign.id,
			campaignName: codeCampaign.name,
		})
		.from(code)
		.innerJoin(codeBatch, eq(codeBatch.id, code.batchId))
		.innerJoin(codeCampaign, eq(codeCampaign.id, code.campaignId))
		.where(eq(code.code, normalised))
	if (!row) return null
	const redemptions = await db
		.select({
			status: codeRedemption.status,
			grantedAt: codeRedemption.grantedAt,
			reservedUntil: codeRedemption.reservedUntil,
			userName: user.name,
			userEmail: user.email,
		})
		.from(codeRedemption)
		.leftJoin(user, eq(user.id, codeRedemption.userId))
		.where(eq(codeRedemption.code, normalised))
		.orderBy(desc(codeRedemption.createdAt))
	return { ...row, redemptions }
}

export async function addCampaignFile(
	db: Db,
	input: { campaignId: string; storageKey: string; name: string; size: number; contentType: string },
): Promise<string> {
	const id = newId()
	await db.insert(codeCampaignFile).values({ id, ...input })
	return id
}

/** Removes a file from a campaign; returns its storage key so the caller deletes the bytes. */
export async function removeCampaignFile(db: Db, campaignId: string, fileId: string): Promise<string | null> {
	const [row] = await db
		.delete(codeCampaignFile)
		.where(and(eq(codeCampaignFile.id, fileId), eq(codeCampaignFile.campaignId, campaignId)))
		.returning({ key: codeCampaignFile.storageKey })
	return row?.key ?? null
}
