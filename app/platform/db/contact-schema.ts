import { date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { outboxMail, user } from './base-schema.ts'

export const CONTACT_SUBJECTS = ['booking', 'presse', 'autre'] as const
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]
export const CONTACT_STATUSES = ['unread', 'read', 'handled'] as const
export type ContactStatus = (typeof CONTACT_STATUSES)[number]

/**
 * A message sent through /contact. Stored before anything is mailed, so that nothing is lost when
 * the relay is down; the mails to the band and the copy to the sender are outbox mails.
 */
export const contactMessage = pgTable(
	'contact_message',
	{
		id: text('id').primaryKey(),
		name: text('name').notNull(),
		email: text('email').notNull(),
		subject: text('subject', { enum: CONTACT_SUBJECTS }).notNull(),
		body: text('body').notNull(),
		status: text('status', { enum: CONTACT_STATUSES }).notNull().default('unread'),
		/** The outbox mail that carried the message to the band (null when no contact address is set). */
		notifyMailId: text('notify_mail_id').references(() => outboxMail.id, { onDelete: 'set null' }),
		createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
		readAt: timestamp('read_at', { withTimezone: true }),
		handledAt: timestamp('handled_at', { withTimezone: true }),
	},
	(t) => [index('contact_message_created_idx').on(t.createdAt), index('contact_message_status_idx').on(t.status)],
)

/** An admin's answer to a contact message, sent through the outbox and kept in the thread. */
export const contactReply = pgTable(
	'contact_reply',
	{
		id: text('id').primaryKey(),
		messageId: text('message_id')
			.notNull()
			.references(() => contactMessage.id, { onDelete: 'cascade' }),
		body: text('body').notNull(),
		authorId: text('author_id').references(() => user.id, { onDelete: 'set null' }),
		authorName: text('author_name').notNull(),
		mailId: text('mail_id').references(() => outboxMail.id, { onDelete: 'set null' }),
		createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
	},
	(t) => [index('contact_reply_message_idx').on(t.messageId, t.createdAt)],
)

/**
 * Audience figures without cookies: page views of public pages counted per Paris day, path,
 * referring domain ('' when none or the site itself) and UTM source ('' when none). No visitor
 * identifier, no address, nothing per visit.
 */
export const pageViewDaily = pgTable(
	'page_view_daily',
	{
		day: date('day', { mode: 'string' }).notNull(),
		path: text('path').notNull(),
		referrer: text('referrer').notNull().default(''),
		utmSource: text('utm_source').notNull().default(''),
		views: integer('views').notNull().default(0),
	},
	(t) => [primaryKey({ columns: [t.day, t.path, t.referrer, t.utmSource] }), index('page_view_daily_day_idx').on(t.day)],
)
