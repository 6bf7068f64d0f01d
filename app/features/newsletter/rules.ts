import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { emailField } from '#app/features/accounts/fields.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'

/*
 * The newsletter's rules and its forms' schemas, shared by the browser and the server. The
 * retention figures are the ones the purge applies and the privacy policy states.
 */

/** How long a confirmation link stays valid. */
export const CONFIRM_TTL_HOURS = 72
/** How long « Me réinscrire » acts at once on the page that has just unsubscribed; later, a confirmation mail. */
export const RESUBSCRIBE_WINDOW_MINUTES = 10
/** A pending address that never confirmed is deleted this many days after it was entered. */
export const PENDING_PURGE_DAYS = 7
/** A newsletter's delivery record (address, date, outcome) is kept this long, then deleted. */
export const DELIVERY_RECORD_DAYS = 365
/** The privacy policy version a subscriber consents to (change it with content/policies/privacy.md). */
export const POLICY_VERSION = '2026-11'

export const SUBJECT_MAX = 150
export const PREHEADER_MAX = 200
export const BODY_MAX = 50_000
export const CONSENT_NOTE_MAX = 200
/** Lines an import may hold. */
export const IMPORT_MAX_LINES = 100_000

/** The forms' messages (keys of translation.json), looked up when a value is refused (app/i18n/schema-messages.ts). */
const MESSAGES = {
	consent: lazyT('newsletter.validation.consent'),
	consentNoteMax: lazyT('newsletter.validation.consentNoteMax', { max: CONSENT_NOTE_MAX }),
	consentNote: lazyT('newsletter.validation.consentNote'),
	importConsentNote: lazyT('newsletter.validation.importConsentNote'),
	subject: lazyT('newsletter.validation.subject'),
	subjectMax: lazyT('newsletter.validation.subjectMax', { max: SUBJECT_MAX }),
	preheaderMax: lazyT('newsletter.validation.preheaderMax', { max: PREHEADER_MAX }),
	body: lazyT('newsletter.validation.body'),
	bodyMax: lazyT('newsletter.validation.bodyMax', { max: frenchInteger(BODY_MAX) }),
} as const

/** The landing page's form: an address and an explicit, unticked consent. `website` is the honeypot. */
export const SubscribeSchema = z.object({
	email: emailField,
	consent: z.literal('on', { error: MESSAGES.consent }),
	website: textField().max(0).optional(),
})

/** `/unsubscribe` without a token: the address to send the link to. */
export const UnsubscribeRequestSchema = z.object({ email: emailField })

/** The admin's « Ajouter » form. A certified consent says where it was given. */
export const AddSubscriberSchema = z
	.object({
		email: emailField,
		/** Ticked: the admin certifies the person consented (e.g. a paper form); the address is active at once. */
		certified: z.literal('on').optional(),
		consentNote: textField().trim().max(CONSENT_NOTE_MAX, { error: MESSAGES.consentNoteMax }).optional(),
	})
	.refine((value) => !value.certified || (value.consentNote ?? '').length >= 3, {
		path: ['consentNote'],
		error: MESSAGES.consentNote,
	})

export const ImportSchema = z.object({
	consentNote: textField({ error: MESSAGES.importConsentNote })
		.trim()
		.min(3, { error: MESSAGES.importConsentNote })
		.max(CONSENT_NOTE_MAX, { error: MESSAGES.consentNoteMax }),
})

export const CampaignSchema = z.object({
	subject: textField({ error: MESSAGES.subject })
		.trim()
		.min(1, { error: MESSAGES.subject })
		.max(SUBJECT_MAX, { error: MESSAGES.subjectMax }),
	preheader: textField().trim().max(PREHEADER_MAX, { error: MESSAGES.preheaderMax }).optional(),
	body: textField({ multiline: true, error: MESSAGES.body })
		.trim()
		.min(1, { error: MESSAGES.body })
		.max(BODY_MAX, { error: MESSAGES.bodyMax }),
})
