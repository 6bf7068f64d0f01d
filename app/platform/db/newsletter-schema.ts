import { sql } from 'drizzle-orm'
import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { event, user } from './base-schema.ts'

/* The newsletter (features/newsletter): subscribers, campaigns, deliveries and pending imports. */

const createdAt = () => timestamp('created_at', { withTimezone: true }).defaultNow().notNull()
const updatedAt = () =>
	timestamp('updated_at', { withTimezone: true })
		.defaultNow()
		.$onUpdate(() => new Date())
		.notNull()

export const SUBSCRIBER_STATUSES = ['pending', 'active', 'unsubscribed', 'bounced'] as const
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number]
export const SUBSCRIBER_SOURCES = ['landing', 'signup', 'settings', 'admin', 'import', 'resubscribe'] as const
export type SubscriberSource = (typeof SUBSCRIBER_SOURCES)[number]

/**
 * A newsletter subscriber: one row per address (lower-cased), whether or not a member has it. A
 * member's settings toggle reads and writes this same row (features/newsletter). Nothing but the
 * confirmation mail goes to a pending address; pending rows are purged after a few days.
 */
export const newsletterSubscriber = pgTable(
	'newsletter_subscriber',
	{
		id: text('id').primaryKey(),
		email: text('email').notNull().unique(),
		status: text('status', { enum: SUBSCRIBER_STATUSES }).notNull().default('pending'),
		source: text('source', { enum: SUBSCRIBER_SOURCES }).notNull(),
		/** Where the consent was given, in words (an import's or a hand-added address's origin). */
		consentNote: text('consent_note'),
		/** When the subscriber consented (the confirmation click, or the admin's certified date). */
		consentAt: timestamp('consent_at', { withTimezone: true }),
		/** The privacy policy version in force when consent was given. */
		policyVersion: text('policy_version'),
		/** SHA-256 of the pending confirmation link's token; cleared once used. */
		confirmTokenHash: text('confirm_token_hash').unique(),
		confirmExpiresAt: timestamp('confirm_expires_at', { withTimezone: true }),
		/** The opaque per-subscriber token of every newsletter's unsubscribe link. */
		unsubscribeToken: text('unsubscribe_token').notNull().unique(),
		unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
		bouncedAt: timestamp('bounced_at', { withTimezone: true }),
		/**
		 * The town the subscriber chose, if any (features/towns): its id in the town list, its label
		 * and its coordinates, as the server resolved them. Never an address.
		 */
		townId: integer('town_id'),
		townLabel: text('town_label'),
		latitude: doublePrecision('latitude'),
		longitude: doublePrecision('longitude'),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		index('newsletter_subscriber_status_idx').on(t.status, t.createdAt),
		// A concert's audience: active subscribers in a latitude band first, then the exact distance.
		index('newsletter_subscriber_place_idx')
			.on(t.latitude, t.longitude)
			.where(sql`${t.status} = 'active' and ${t.latitude} is not null`),
	],
)

/** A concert's announcement: the subscribers within `radiusKm` of its venue (and those without a town, if asked). */
export interface CampaignAudience {
	kind: 'radius'
	eventId: string
	/** « Le Transbordeur, Lyon »: the venue as the admin saw it. */
	venue: string
	latitude: number
	longitude: number
	radiusKm: number
	includeNoTown: boolean
	/** The audience's size when the campaign was last saved (the send's own count is `recipients`). */
	countAtSave: number
}

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number]

/** A newsletter issue: written in Markdown, sent now or at `scheduledAt`, in the background. */
export const newsletterCampaign = pgTable(
	'newsletter_campaign',
	{
		id: text('id').primaryKey(),
		subject: text('subject').notNull(),
		preheader: text('preheader').notNull().default(''),
		/** Markdown, rendered with raw HTML off. */
		body: text('body').notNull(),
		status: text('status', { enum: CAMPAIGN_STATUSES }).notNull().default('draft'),
		scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
		startedAt: timestamp('started_at', { withTimezone: true }),
		finishedAt: timestamp('finished_at', { withTimezone: true }),
		/** How many deliveries the send wrote (the active subscribers when it started, in its audience). */
		recipients: integer('recipients'),
		/**
		 * Who it goes to: null for every active subscriber; a concert's announcement to the fans near
		 * it (features/newsletter/audience.server.ts), with the venue's coordinates as they were when
		 * the admin chose, and the count the admin saw.
		 */
		audience: jsonb('audience').$type<CampaignAudience>(),
		/** The process sending it now, and when it last said so (a lease: a dead sender's lapses). */
		runnerId: text('runner_id'),
		heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
		/** Since when the relay has taken nothing of this send, and its last answer (null while it does). */
		relayErrorSince: timestamp('relay_error_since', { withTimezone: true }),
		relayError: text('relay_error'),
		/**
		 * A draft the site prepared by itself when this event was first published (the setting
		 * « Préparer une annonce… »): at most one per event, so a re-publication makes no second one.
		 */
		preparedForEvent: text('prepared_for_event').references(() => event.id, { onDelete: 'set null' }),
		preparedAt: timestamp('prepared_at', { withTimezone: true }),
		createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		index('newsletter_campaign_status_idx').on(t.status, t.scheduledAt),
		uniqueIndex('newsletter_campaign_prepared_for_event_idx').on(t.preparedForEvent),
	],
)

export const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'bounced', 'skipped'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/**
 * One campaign to one subscriber: written when the send starts, unique per pair, so that a resumed
 * send never mails anyone twice. `sent` is recorded just before the message is committed at the
 * relay (features/newsletter/sender.server.ts).
 */
export const newsletterDelivery = pgTable(
	'newsletter_delivery',
	{
		id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
		campaignId: text('campaign_id')
			.notNull()
			.references(() => newsletterCampaign.id, { onDelete: 'cascade' }),
		subscriberId: text('subscriber_id').references(() => newsletterSubscriber.id, { onDelete: 'set null' }),
		email: text('email').notNull(),
		status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('queued'),
		attempts: integer('attempts').notNull().default(0),
		lastError: text('last_error'),
		/** When a failed attempt may be tried again. */
		retryAt: timestamp('retry_at', { withTimezone: true }),
		sentAt: timestamp('sent_at', { withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('newsletter_delivery_campaign_subscriber_idx').on(t.campaignId, t.subscriberId),
		index('newsletter_delivery_campaign_status_idx').on(t.campaignId, t.status, t.id),
		index('newsletter_delivery_sent_at_idx').on(t.sentAt),
		// A member's deliveries by address: their data export, their account's erasure, and a change of
		// their address (features/newsletter), each of which would otherwise read every delivery ever made.
		index('newsletter_delivery_email_idx').on(t.email),
	],
)

export const IMPORT_STATUSES = ['preview', 'queued', 'running', 'done', 'failed'] as const
export type ImportStatus = (typeof IMPORT_STATUSES)[number]

/**
 * An admin's CSV import: the new, valid addresses (one per line) and where their consent was given,
 * kept from the preview to the confirmation, then written by a background job in slices (`done` of
 * `total` lines, `added` of them new: the job resumes from `done` after a crash). The addresses are
 * dropped once written; the row goes after a day.
 */
export const newsletterImport = pgTable('newsletter_import', {
	id: text('id').primaryKey(),
	createdBy: text('created_by')
		.notNull()
		.references(() => user.id, { onDelete: 'cascade' }),
	consentNote: text('consent_note').notNull(),
	addresses: text('addresses').notNull(),
	status: text('status', { enum: IMPORT_STATUSES }).notNull().default('preview'),
	total: integer('total').notNull().default(0),
	done: integer('done').notNull().default(0),
	added: integer('added').notNull().default(0),
	error: text('error'),
	finishedAt: timestamp('finished_at', { withTimezone: true }),
	createdAt: createdAt(),
})
