import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { EVENT_STATUSES, type EventStatus } from './event-status.ts'

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
		status: text('status', { enum: ['queued', 'sent', 'failed'] })
			.notNull()
			.default('queued'),
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

/** One stored rendition of an uploaded image (a format at a width). */
export interface MediaVariant {
	format: 'avif' | 'webp' | 'jpeg'
	width: number
	height: number
	/** The storage key of the file. */
	key: string
	bytes: number
}

/**
 * An uploaded image (an event cover, a member's avatar). The original is kept privately; the
 * background job writes its variants, with progress, then marks it ready.
 */
export const media = pgTable(
	'media',
	{
		id: text('id').primaryKey(),
		kind: text('kind', { enum: ['cover', 'avatar'] }).notNull(),
		status: text('status', { enum: ['processing', 'ready', 'failed'] })
			.notNull()
			.default('processing'),
		/** 0 to 100, while processing. */
		progress: integer('progress').notNull().default(0),
		originalKey: text('original_key').notNull(),
		width: integer('width'),
		height: integer('height'),
		variants: jsonb('variants').$type<MediaVariant[]>().notNull().default([]),
		/** A short description for screen readers; empty for a purely decorative image. */
		alt: text('alt'),
		error: text('error'),
		createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('media_created_by_idx').on(t.createdBy)],
)

export { EVENT_STATUSES, type EventStatus }

export const COORDINATE_SOURCES = ['town', 'manual', 'unresolved'] as const
export type CoordinateSource = (typeof COORDINATE_SOURCES)[number]

/**
 * A show. Times are instants (UTC in the database), entered and shown in Paris time. A draft is
 * visible only to admins; `publishedAt` is set the first time it is published.
 */
export const event = pgTable(
	'event',
	{
		id: text('id').primaryKey(),
		title: text('title').notNull(),
		startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
		endsAt: timestamp('ends_at', { withTimezone: true }),
		doorsAt: timestamp('doors_at', { withTimezone: true }),
		venueName: text('venue_name').notNull(),
		address: text('address'),
		postalCode: text('postal_code'),
		city: text('city').notNull(),
		/** ISO 3166-1 alpha-2, e.g. FR. */
		country: text('country').notNull().default('FR'),
		latitude: doublePrecision('latitude'),
		longitude: doublePrecision('longitude'),
		/**
		 * Where the coordinates come from: `town` (the town list, `townId`, from the city and country),
		 * `manual` (typed by an admin), `unresolved` (a city the list does not know); null until the
		 * venue has been looked up (events older than the town list, features/events/venue-place.server.ts).
		 */
		coordinatesSource: text('coordinates_source', { enum: COORDINATE_SOURCES }),
		townId: integer('town_id'),
		ticketUrl: text('ticket_url'),
		priceText: text('price_text'),
		status: text('status', { enum: EVENT_STATUSES }).notNull().default('scheduled'),
		/** For a postponed show: when it was planned first. */
		previousStartsAt: timestamp('previous_starts_at', { withTimezone: true }),
		/** Markdown, rendered with raw HTML off. */
		description: text('description').notNull().default(''),
		coverId: text('cover_id').references(() => media.id, { onDelete: 'set null' }),
		published: boolean('published').notNull().default(false),
		publishedAt: timestamp('published_at', { withTimezone: true }),
		createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
		updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('event_published_starts_idx').on(t.published, t.startsAt)],
)

/**
 * A song of the band's repertoire (setlist library). A cover names its original artist. Songs are
 * archived, never deleted, so that old setlists keep what was played.
 */
export const song = pgTable(
	'song',
	{
		id: text('id').primaryKey(),
		title: text('title').notNull(),
		/** The original artist when the band plays it as a cover; null for the band's own song. */
		originalArtist: text('original_artist'),
		/** In seconds; null when not known. */
		durationSeconds: integer('duration_seconds'),
		/** As the band writes it: « Mi mineur », « Em », « F# ». */
		musicalKey: text('musical_key'),
		/** Beats per minute. */
		tempo: integer('tempo'),
		notes: text('notes').notNull().default(''),
		archived: boolean('archived').notNull().default(false),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('song_archived_title_idx').on(t.archived, t.title)],
)

/**
 * A setlist: ordered items built from the library. `version` grows by one on every save, so that a
 * save made from an older copy is refused instead of overwriting someone else's work. At most one
 * setlist per event; it shows on the event's page once published.
 */
export const setlist = pgTable(
	'setlist',
	{
		id: text('id').primaryKey(),
		name: text('name').notNull(),
		eventId: text('event_id')
			.unique()
			.references(() => event.id, { onDelete: 'set null' }),
		published: boolean('published').notNull().default(false),
		publishedAt: timestamp('published_at', { withTimezone: true }),
		version: integer('version').notNull().default(1),
		createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
		updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('setlist_updated_idx').on(t.updatedAt)],
)

export const SETLIST_ITEM_KINDS = ['song', 'set', 'encore', 'note'] as const
export type SetlistItemKind = (typeof SETLIST_ITEM_KINDS)[number]

/**
 * One line of a setlist, at its position: a song of the library, a set break (named, « Set
 * acoustique »), an encore break, or a free note (« accordage », « discours »). `notes` is the
 * per-item remark (« avec invité », « sur bande »).
 */
export const setlistItem = pgTable(
	'setlist_item',
	{
		id: text('id').primaryKey(),
		setlistId: text('setlist_id')
			.notNull()
			.references(() => setlist.id, { onDelete: 'cascade' }),
		position: integer('position').notNull(),
		kind: text('kind', { enum: SETLIST_ITEM_KINDS }).notNull(),
		songId: text('song_id').references(() => song.id, { onDelete: 'restrict' }),
		/** A break's name or a note's text; empty for a song. */
		label: text('label').notNull().default(''),
		notes: text('notes').notNull().default(''),
	},
	(t) => [index('setlist_item_setlist_position_idx').on(t.setlistId, t.position), index('setlist_item_song_idx').on(t.songId)],
)
