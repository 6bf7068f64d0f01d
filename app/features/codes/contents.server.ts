import { hkdfSync } from 'node:crypto'
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm'
import { resolveAuthSecret } from '#app/platform/auth.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { codeCampaign, codeCampaignFile, codeDownload, codeRedemption } from '#app/platform/db/schema.ts'
import type { Env } from '#app/platform/env.server.ts'
import { renderMarkdown } from '#app/features/site/markdown.server.ts'
import { hmac, newId, sameSecret } from '#app/platform/random-token.server.ts'
import { DOWNLOAD_LINK_SECONDS } from './rules.ts'
import { cachedForMember } from '#app/platform/session-cache.server.ts'

/** What a campaign unlocks, as a visitor or a member sees it. */
export interface Unlocked {
	campaignId: string
	name: string
	/** Sanitised HTML from the campaign's Markdown. */
	messageHtml: string
	/** A link without its address is a teaser: its label only. */
	links: { label: string; url?: string }[]
	files: { id: string; name: string; size: number; href?: string }[]
	grantedAt?: string
	/** True for what anyone may see before the code is kept (see unlockedBy). */
	teaser?: boolean
}

async function describe(db: Db, campaignIds: string[]): Promise<Map<string, Unlocked>> {
	const result = new Map<string, Unlocked>()
	if (campaignIds.length === 0) return result
	const campaigns = await db.select().from(codeCampaign).where(inArray(codeCampaign.id, campaignIds))
	const files = await db
		.select()
		.from(codeCampaignFile)
		.where(inArray(codeCampaignFile.campaignId, campaignIds))
		.orderBy(asc(codeCampaignFile.createdAt), asc(codeCampaignFile.name))
	for (const campaign of campaigns) {
		result.set(campaign.id, {
			campaignId: campaign.id,
			name: campaign.name,
			messageHtml: campaign.message ? renderMarkdown(campaign.message) : '',
			links: campaign.links,
			files: [],
		})
	}
	for (const file of files) result.get(file.campaignId)?.files.push({ id: file.id, name: file.name, size: file.size })
	return result
}

/**
 * What one campaign unlocks, as a teaser: shown on /redeem and on the claim page before the code is
 * kept, so to anyone holding the code. The campaign's name, its files' names and sizes and its
 * links' labels tell what is inside; the reward itself (the message, the links' addresses, the
 * downloads) goes only to the member who kept the code (memberContents). The campaign form says so.
 */
export async function unlockedBy(db: Db, campaignId: string): Promise<Unlocked | null> {
	const unlocked = (await describe(db, [campaignId])).get(campaignId)
	if (!unlocked) return null
	return { ...unlocked, messageHtml: '', links: unlocked.links.map(({ label }) => ({ label })), teaser: true }
}

/** « Mes contenus »: every campaign the member's codes unlocked, newest first, with fresh download links. */
export async function memberContents(db: Db, env: Env, userId: string, now = new Date()): Promise<Unlocked[]> {
	// Read once per few seconds per member (every dashboard page shows it); forgotten as soon as
	// one of their redemptions changes (the database's signal, app/platform/session-cache.server.ts).
	const grants = await cachedForMember(userId, 'grants', () =>
		db
			.selectDistinctOn([codeRedemption.campaignId], { campaignId: codeRedemption.campaignId, grantedAt: codeRedemption.grantedAt })
			.from(codeRedemption)
			.where(and(eq(codeRedemption.userId, userId), eq(codeRedemption.status, 'granted'), isNotNull(codeRedemption.grantedAt)))
			.orderBy(codeRedemption.campaignId, asc(codeRedemption.grantedAt)),
	)
	const described = await describe(
		db,
		grants.map((g) => g.campaignId),
	)
	const key = await signingKey(db, env)
	return [...grants]
		.sort((a, b) => b.grantedAt!.getTime() - a.grantedAt!.getTime())
		.flatMap((grant) => {
			const unlocked = described.get(grant.campaignId)
			if (!unlocked) return []
			return [
				{
					...unlocked,
					grantedAt: grant.grantedAt!.toISOString(),
					files: unlocked.files.map((file) => ({ ...file, href: downloadHref(key, file.id, userId, now) })),
				},
			]
		})
}

const keys = new WeakMap<Db, Buffer>()
/** A key of its own for download links, derived from the site's secret. */
async function signingKey(db: Db, env: Env): Promise<Buffer> {
	let key = keys.get(db)
	if (!key) {
		key = Buffer.from(hkdfSync('sha256', await resolveAuthSecret(db, env), 'band-site', 'code downloads v1', 32))
		keys.set(db, key)
	}
	return key
}

const sign = (key: Buffer, fileId: string, userId: string, expires: number) => hmac(key, `${fileId}\n${userId}\n${expires}`)

export const DOWNLOAD_PREFIX = '/dashboard/contenus/'

function downloadHref(key: Buffer, fileId: string, userId: string, now: Date): string {
	const expires = Math.floor(now.getTime() / 1000) + DOWNLOAD_LINK_SECONDS
	return `${DOWNLOAD_PREFIX}${fileId}?${new URLSearchParams({ expires: String(expires), sig: sign(key, fileId, userId, expires) })}`
}

export type DownloadCheck =
	{ ok: true; file: { id: string; storageKey: string; name: string } } | { ok: false; reason: 'invalid' | 'expired' | 'forbidden' }

/**
 * Checks a download link for the signed-in member: signed for this file and this member, not
 * expired, and the member still holds a grant of the file's campaign.
 */
export async function checkDownload(
	db: Db,
	env: Env,
	fileId: string,
	userId: string,
	params: URLSearchParams,
	now = new Date(),
): Promise<DownloadCheck> {
	const expiresText = params.get('expires') ?? ''
	const sig = params.get('sig') ?? ''
	if (!/^[A-Za-z0-9_-]{16}$/.test(fileId) || !/^\d{1,12}$/.test(expiresText) || !/^[A-Za-z0-9_-]{43}$/.test(sig))
		return { ok: false, reason: 'invalid' }
	if (!sameSecret(sig, sign(await signingKey(db, env), fileId, userId, Number(expiresText)))) return { ok: false, reason: 'forbidden' }
	if (Number(expiresText) * 1000 < now.getTime()) return { ok: false, reason: 'expired' }
	const [file] = await db
		.select({ id: codeCampaignFile.id, storageKey: codeCampaignFile.storageKey, name: codeCampaignFile.name })
		.from(codeCampaignFile)
		.innerJoin(
			codeRedemption,
			and(
				eq(codeRedemption.campaignId, codeCampaignFile.campaignId),
				eq(codeRedemption.userId, userId),
				eq(codeRedemption.status, 'granted'),
			),
		)
		.where(eq(codeCampaignFile.id, fileId))
		.limit(1)
	return file ? { ok: true, file } : { ok: false, reason: 'forbidden' }
}

export async function countDownload(db: Db, fileId: string, userId: string): Promise<void> {
	await db.insert(codeDownload).values({ id: newId(), fileId, userId })
}

/** For the member's data export: their codes and downloads. */
export async function memberCodeData(db: Db, userId: string) {
	const redemptions = await db
		.select({ code: codeRedemption.code, campaign: codeCampaign.name, grantedAt: codeRedemption.grantedAt })
		.from(codeRedemption)
		.innerJoin(codeCampaign, eq(codeCampaign.id, codeRedemption.campaignId))
		.where(eq(codeRedemption.userId, userId))
		.orderBy(desc(codeRedemption.grantedAt))
	const downloads = await db
		.select({ file: codeCampaignFile.name, at: codeDownload.at })
		.from(codeDownload)
		.innerJoin(codeCampaignFile, eq(codeCampaignFile.id, codeDownload.fileId))
		.where(eq(codeDownload.userId, userId))
		.orderBy(desc(codeDownload.at))
	return { redemptions, downloads }
}
