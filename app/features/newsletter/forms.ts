import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { emailField } from '#app/features/accounts/forms.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'
import { BODY_MAX, CONSENT_NOTE_MAX, PREHEADER_MAX, SUBJECT_MAX } from './rules.ts'

/* The newsletter's forms: one Zod schema each, for the browser's constraints and the server's validation. */

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
