import { asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import {
	account,
	newsletterDelivery,
	newsletterSubscriber,
	outboxMail,
	rateLimit,
	session,
	user,
	verification,
} from '#app/platform/db/schema.ts'
import type { Env } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { avatarsOf, deleteMediaWhere, memberImagesForExport, prepareMediaDeletion } from '#app/features/media/media.server.ts'
import { memberCodeData } from '#app/features/codes/contents.server.ts'
import { memberNewsletterData } from '#app/features/newsletter/subscribers.server.tsx'
import { RETENTION } from './housekeeping.server.ts'
import { methodName, type SettingsOutcome } from './settings.server.ts'
import { parisDay } from '#app/platform/time-zone.ts'

/*
 * A member's rights over their data (RGPD): a copy of everything the site holds about them
 * (art. 15 and 20), and its erasure with the account (art. 17). Each feature that stores something
 * about a member adds it to both: a section in `exportAccountData`, a step in `ERASERS`.
 */

/** Mails addressed to the member: matched on the address, whatever its case. */
const addressedTo = (email: string) => sql`lower(${outboxMail.toAddress}) = ${email.toLowerCase()}`

export interface AccountExport {
	exportedAt: string
	note: string
	site: string
	profile: {
		id: string
		name: string
		email: string
		emailVerified: boolean
		image: string | null
		city: string | null
		createdAt: string
		updatedAt: string
	}
	signInMethods: { provider: string; name: string; linkedAt: string; updatedAt: string }[]
	sessions: { createdAt: string; lastActiveAt: string; expiresAt: string; ipAddress: string | null; userAgent: string | null }[]
	emails: { kind: string; subject: string; status: string; createdAt: string; sentAt: string | null }[]
	images: { kind: string; status: string; url: string | null; uploadedAt: string }[]
	/** Codes the member redeemed, and the files they downloaded with them. */
	codes: { code: string; campaign: string; redeemedAt: string | null }[]
	downloads: { file: string; at: string }[]
	/** The newsletter subscription of the member's address (what the settings toggle shows), and the issues sent to it. */
	newsletter: Awaited<ReturnType<typeof memberNewsletterData>>
}

/**
 * Everything the site holds about the member, in a form they can read and take elsewhere. Secrets
 * are left out on purpose, even their own: password hashes, session and provider tokens.
 */
export async function exportAccountData(db: Db, env: Env, userId: string, now = new Date()): Promise<AccountExport | null> {
	const [row] = await db.select().from(user).where(eq(user.id, userId))
	if (!row) return null
	const methods = await db
		.select({ providerId: account.providerId, createdAt: account.createdAt, updatedAt: account.updatedAt })
		.from(account)
		.where(eq(account.userId, userId))
		.orderBy(asc(account.createdAt))
	const sessions = await db
		.select({
			createdAt: session.createdAt,
			updatedAt: session.updatedAt,
			expiresAt: session.expiresAt,
			ipAddress: session.ipAddress,
			userAgent: session.userAgent,
		})
		.from(session)
		.where(eq(session.userId, userId))
		.orderBy(desc(session.updatedAt))
	const mails = await db
		.select({
			kind: outboxMail.kind,
			subject: outboxMail.subject,
			status: outboxMail.status,
			createdAt: outboxMail.createdAt,
			sentAt: outboxMail.sentAt,
		})
		.from(outboxMail)
		.where(addressedTo(row.email))
		.orderBy(desc(outboxMail.createdAt))
	const codeData = await memberCodeData(db, userId)
	return {
		exportedAt: now.toISOString(),
		note: getT()('settings.export.note', { days: RETENTION.mailRecordDays }),
		site: env.SITE_URL,
		profile: {
			id: row.id,
			name: row.name,
			email: row.email,
			emailVerified: row.emailVerified,
			image: row.image,
			city: row.city,
			createdAt: row.createdAt.toISOString(),
			updatedAt: row.updatedAt.toISOString(),
		},
		signInMethods: methods.map((m) => ({
			provider: m.providerId,
			name: methodName(env, m.providerId),
			linkedAt: m.createdAt.toISOString(),
			updatedAt: m.updatedAt.toISOString(),
		})),
		sessions: sessions.map((s) => ({
			createdAt: s.createdAt.toISOString(),
			lastActiveAt: s.updatedAt.toISOString(),
			expiresAt: s.expiresAt.toISOString(),
			ipAddress: s.ipAddress,
			userAgent: s.userAgent,
		})),
		emails: mails.map((m) => ({
			kind: m.kind,
			subject: m.subject,
			status: m.status,
			createdAt: m.createdAt.toISOString(),
			sentAt: m.sentAt?.toISOString() ?? null,
		})),
		images: await memberImagesForExport(db, userId, env.SITE_URL),
		codes: codeData.redemptions.map((r) => ({ code: r.code, campaign: r.campaign, redeemedAt: r.grantedAt?.toISOString() ?? null })),
		downloads: codeData.downloads.map((d) => ({ file: d.file, at: d.at.toISOString() })),
		newsletter: await memberNewsletterData(db, row.email),
	}
}

/** « donnees-2026-03-14.json », dated in Paris. */
export function exportFileName(now = new Date()): string {
	return `donnees-${parisDay(now)}.json`
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export interface Member {
	id: string
	email: string
}

/**
 * What goes with an account, besides the user row itself (whose deletion cascades to its sessions
 * and sign-in methods). One step per kind of personal data; a feature that stores something about
 * a member adds its step here. Anonymous aggregates (counts, statistics) are not personal data and stay.
 */
const ERASERS: { what: string; erase: (tx: Tx, member: Member) => Promise<unknown> }[] = [
	{ what: 'mails addressed to the member', erase: (tx, m) => tx.delete(outboxMail).where(addressedTo(m.email)) },
	{
		what: 'the newsletter subscription of the member’s address (its sends stay counted, without the address)',
		erase: async (tx, m) => {
			const email = m.email.toLowerCase()
			await tx.update(newsletterDelivery).set({ email: '' }).where(eq(newsletterDelivery.email, email))
			await tx.delete(newsletterSubscriber).where(eq(newsletterSubscriber.email, email))
		},
	},
	{ what: 'password-reset tokens', erase: (tx, m) => tx.delete(verification).where(eq(verification.value, m.id)) },
	{
		what: 'rate-limit counters keyed on the account',
		erase: (tx, m) =>
			tx
				.delete(rateLimit)
				.where(
					inArray(rateLimit.key, [
						`signInByAccount:${m.email.toLowerCase()}`,
						`resetByAccount:${m.email.toLowerCase()}`,
						`resendByAccount:${m.id.toLowerCase()}`,
						`settingsByAccount:${m.id.toLowerCase()}`,
						`redeemByAccount:${m.id.toLowerCase()}`,
						`redeemByAccountDaily:${m.id.toLowerCase()}`,
					]),
				),
	},
	{
		what: 'the member’s avatar (its files are deleted by a job once this commits)',
		erase: async (tx, m) => deleteMediaWhere(tx, (await getPlatform()).jobs, avatarsOf(m.id)),
	},
	// Codes the member redeemed stay spent; the link to the member goes with the account (ON DELETE SET NULL).
	{ what: 'the account itself, with its sessions and sign-in methods', erase: (tx, m) => tx.delete(user).where(eq(user.id, m.id)) },
]

/** Erases the member's personal data in one transaction: all of it, or nothing. */
export async function erasePersonalData(db: Db, member: Member): Promise<void> {
	// Queues the erasers send to are declared outside the transaction (PGlite has one connection).
	await prepareMediaDeletion((await getPlatform()).jobs)
	await db.transaction(async (tx) => {
		for (const step of ERASERS) await step.erase(tx, member)
	})
}

/**
 * Deletes the account (RGPD art. 17). Better Auth deletes the identity, checking the password
 * again, or, for an account without one, that the session is recent; its answer also expires the
 * session cookies. Then the rest of the member's data goes, and a last mail confirms it.
 */
export async function deleteAccount(
	request: Request,
	member: Member & { name: string },
	password: string | null,
): Promise<SettingsOutcome> {
	const { auth, database, emails, logger } = await getPlatform()
	const t = getT()
	let response: Response
	try {
		response = await auth.api.deleteUser({ body: password ? { password } : {}, headers: request.headers, asResponse: true })
	} catch (error) {
		logger.warn({ err: error }, 'account deletion failed')
		return { ok: false, status: 503, message: t('settings.errors.unavailable') }
	}
	if (!response.ok) {
		const code = String(((await response.json().catch(() => ({}))) as { code?: unknown }).code ?? '')
		if (code === 'INVALID_PASSWORD') return { ok: false, status: 400, message: t('settings.errors.wrongPassword'), field: 'password' }
		if (code === 'SESSION_EXPIRED' || code === 'SESSION_NOT_FRESH')
			return { ok: false, status: 403, message: t('settings.errors.signInAgain') }
		return { ok: false, status: response.status >= 500 ? 503 : 400, message: t('settings.errors.unavailable') }
	}
	try {
		await erasePersonalData(database.db, member)
	} catch (error) {
		// The account is gone already; what is left must be erased by hand, so say exactly what.
		logger.error({ err: error, userId: member.id }, 'account deleted, but its other personal data could not be erased')
	}
	await emails.notice('account-deleted', member.email, t('settings.mail.deleted.subject'), t('settings.mail.deleted.title'), [
		t('settings.mail.deleted.body'),
		t('settings.mail.deleted.kept'),
		t('settings.mail.deleted.notYou'),
	])
	const headers = new Headers()
	for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
	return { ok: true, headers }
}
