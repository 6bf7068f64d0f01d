import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/*
 * Identity tables, in the shape Better Auth's Drizzle adapter expects (with the admin plugin's
 * fields). Columns are snake_case in SQL, camelCase in code.
 */
const createdAt = () => timestamp('created_at', { withTimezone: true }).defaultNow().notNull()
const updatedAt = () =>
	timestamp('updated_at', { withTimezone: true })
		.defaultNow()
		.$onUpdate(() => new Date())
		.notNull()

export const user = pgTable('user', {
	id: text('id').primaryKey(),
	name: text('name').notNull(),
	email: text('email').notNull().unique(),
	emailVerified: boolean('email_verified').default(false).notNull(),
	image: text('image'),
	role: text('role').default('user'),
	banned: boolean('banned').default(false),
	banReason: text('ban_reason'),
	banExpires: timestamp('ban_expires', { withTimezone: true }),
	/** Member-editable profile field (see features/accounts/profile.server.ts). */
	city: text('city'),
	createdAt: createdAt(),
	updatedAt: updatedAt(),
})

export const session = pgTable(
	'session',
	{
		id: text('id').primaryKey(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		token: text('token').notNull().unique(),
		ipAddress: text('ip_address'),
		userAgent: text('user_agent'),
		userId: text('user_id')
			.notNull()
			.references(() => user.id, { onDelete: 'cascade' }),
		impersonatedBy: text('impersonated_by'),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('session_user_id_idx').on(t.userId)],
)

export const account = pgTable(
	'account',
	{
		id: text('id').primaryKey(),
		accountId: text('account_id').notNull(),
		providerId: text('provider_id').notNull(),
		userId: text('user_id')
			.notNull()
			.references(() => user.id, { onDelete: 'cascade' }),
		accessToken: text('access_token'),
		refreshToken: text('refresh_token'),
		idToken: text('id_token'),
		accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
		refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
		scope: text('scope'),
		password: text('password'),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('account_user_id_idx').on(t.userId)],
)

export const verification = pgTable(
	'verification',
	{
		id: text('id').primaryKey(),
		identifier: text('identifier').notNull(),
		value: text('value').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('verification_identifier_idx').on(t.identifier)],
)

/** Site-wide values the server keeps for itself (e.g. the generated auth secret). */
export const siteSetting = pgTable('site_setting', {
	key: text('key').primaryKey(),
	value: text('value').notNull(),
	updatedAt: updatedAt(),
})

/**
 * Every e-mail the site sends is written here first, then sent by a background job and retried,
 * so that an SMTP outage loses nothing. Bodies of delivered mail are purged after the retention.
 */
export const outboxMail = pgTable(
	'outbox_mail',
	{
		id: text('id').primaryKey(),
		kind: text('kind').notNull(),
		toAddress: text('to_address').notNull(),
		subject: text('subject').notNull(),
		html: text('html'),
		text: text('text'),
		headers: jsonb('headers').$type<Record<string, string>>(),
		status: text('status', { enum: ['queued', 'sent', 'failed'] }).notNull().default('queued'),
		attempts: integer('attempts').notNull().default(0),
		lastError: text('last_error'),
		messageId: text('message_id'),
		createdAt: createdAt(),
		sentAt: timestamp('sent_at', { withTimezone: true }),
		updatedAt: updatedAt(),
	},
	(t) => [index('outbox_mail_status_created_idx').on(t.status, t.createdAt)],
)

/** Rate-limiter-flexible's store: one row per limited key (rule name + client address or account). */
export const rateLimit = pgTable('rate_limit', {
	key: text('key').primaryKey(),
	points: integer('points').notNull(),
	expire: timestamp('expire', { withTimezone: true }),
})
