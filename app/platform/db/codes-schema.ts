import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { user } from './base-schema.ts'

/*
 * Redeemable codes (app/features/codes): campaigns say what a code unlocks, batches group the
 * codes made or imported together, and each redemption links one use of a code to one member.
 */
const createdAt = () => timestamp('created_at', { withTimezone: true }).defaultNow().notNull()
const updatedAt = () =>
	timestamp('updated_at', { withTimezone: true })
		.defaultNow()
		.$onUpdate(() => new Date())
		.notNull()

export interface CampaignLink {
	label: string
	url: string
}

export const codeCampaign = pgTable('code_campaign', {
	id: text('id').primaryKey(),
	name: text('name').notNull(),
	/** For the admins only. */
	description: text('description').notNull().default(''),
	/** Markdown shown to whoever redeems a code (raw HTML off). */
	message: text('message').notNull().default(''),
	links: jsonb('links').$type<CampaignLink[]>().notNull().default([]),
	startsAt: timestamp('starts_at', { withTimezone: true }),
	endsAt: timestamp('ends_at', { withTimezone: true }),
	usesPerCode: integer('uses_per_code').notNull().default(1),
	status: text('status', { enum: ['active', 'paused'] })
		.notNull()
		.default('active'),
	createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
	createdAt: createdAt(),
	updatedAt: updatedAt(),
})

/** A file a campaign unlocks, kept privately in the storage and served through signed links. */
export const codeCampaignFile = pgTable(
	'code_campaign_file',
	{
		id: text('id').primaryKey(),
		campaignId: text('campaign_id')
			.notNull()
			.references(() => codeCampaign.id, { onDelete: 'cascade' }),
		storageKey: text('storage_key').notNull(),
		name: text('name').notNull(),
		size: integer('size').notNull(),
		contentType: text('content_type').notNull(),
		createdAt: createdAt(),
	},
	(t) => [index('code_campaign_file_campaign_idx').on(t.campaignId)],
)

/** Codes made (a background job, with progress) or imported together. */
export const codeBatch = pgTable(
	'code_batch',
	{
		id: text('id').primaryKey(),
		campaignId: text('campaign_id')
			.notNull()
			.references(() => codeCampaign.id, { onDelete: 'cascade' }),
		kind: text('kind', { enum: ['generated', 'imported'] }).notNull(),
		label: text('label').notNull().default(''),
		requested: integer('requested').notNull(),
		/** How many codes are stored so far (the progress of a generation). */
		created: integer('created').notNull().default(0),
		status: text('status', { enum: ['pending', 'running', 'done', 'failed'] })
			.notNull()
			.default('pending'),
		error: text('error'),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
		createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
		finishedAt: timestamp('finished_at', { withTimezone: true }),
	},
	(t) => [index('code_batch_campaign_idx').on(t.campaignId)],
)

/**
 * One code, stored normalised (upper case, no separators). `uses` counts granted and reserved
 * uses; the database itself refuses more than `max_uses` (the conditional update that redeems
 * checks it too, and the check below is the last word).
 *
 * Its campaign and batch are not foreign keys on purpose: PostgreSQL checks a foreign key row by
 * row, which made storing a batch of 100,000 codes five times slower on the embedded database
 * (bench/codes.ts). Both are written only by the batch job, from a batch row it has just read;
 * campaigns and batches are revoked or paused, never deleted.
 */
export const code = pgTable(
	'code',
	{
		code: text('code').primaryKey(),
		campaignId: text('campaign_id').notNull(),
		batchId: text('batch_id').notNull(),
		maxUses: integer('max_uses').notNull(),
		uses: integer('uses').notNull().default(0),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		// A batch's codes in order: the CSV export and the print sheet page through it.
		index('code_batch_code_idx').on(t.batchId, t.code),
		check('code_uses_within_limit', sql`${t.uses} >= 0 and ${t.uses} <= ${t.maxUses}`),
	],
)

/**
 * One use of a code: reserved for a signed-out visitor for a while (a hashed token in their link),
 * then granted to a member. Account deletion keeps the row (the use stays spent) without the member.
 */
export const codeRedemption = pgTable(
	'code_redemption',
	{
		id: text('id').primaryKey(),
		code: text('code')
			.notNull()
			.references(() => code.code, { onDelete: 'cascade' }),
		campaignId: text('campaign_id')
			.notNull()
			.references(() => codeCampaign.id, { onDelete: 'cascade' }),
		userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
		status: text('status', { enum: ['reserved', 'granted'] }).notNull(),
		/** SHA-256 of the reservation's token (reserved only). */
		tokenHash: text('token_hash'),
		reservedUntil: timestamp('reserved_until', { withTimezone: true }),
		createdAt: createdAt(),
		grantedAt: timestamp('granted_at', { withTimezone: true }),
	},
	(t) => [
		uniqueIndex('code_redemption_code_user_idx').on(t.code, t.userId),
		uniqueIndex('code_redemption_token_idx').on(t.tokenHash),
		index('code_redemption_user_idx').on(t.userId),
		index('code_redemption_campaign_granted_idx').on(t.campaignId, t.grantedAt),
		index('code_redemption_reserved_idx').on(t.status, t.reservedUntil),
	],
)

export const REDEEM_OUTCOMES = [
	'granted',
	'reserved',
	'already',
	'unknown',
	'not_yet',
	'expired',
	'used_up',
	'revoked',
	'paused',
	'invalid',
	'limited',
] as const
export type RedeemOutcome = (typeof REDEEM_OUTCOMES)[number]

/** Every redemption attempt: its outcome and time, never who or from where (for the stats). */
export const codeAttempt = pgTable(
	'code_attempt',
	{
		id: text('id').primaryKey(),
		outcome: text('outcome', { enum: REDEEM_OUTCOMES }).notNull(),
		campaignId: text('campaign_id').references(() => codeCampaign.id, { onDelete: 'set null' }),
		at: timestamp('at', { withTimezone: true }).defaultNow().notNull(),
	},
	(t) => [index('code_attempt_at_idx').on(t.at)],
)

/** A download of an unlocked file, counted. */
export const codeDownload = pgTable(
	'code_download',
	{
		id: text('id').primaryKey(),
		fileId: text('file_id')
			.notNull()
			.references(() => codeCampaignFile.id, { onDelete: 'cascade' }),
		userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
		at: timestamp('at', { withTimezone: true }).defaultNow().notNull(),
	},
	(t) => [index('code_download_file_idx').on(t.fileId), index('code_download_user_idx').on(t.userId)],
)
