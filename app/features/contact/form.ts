import { z } from 'zod'
import { emailField } from '#app/features/accounts/fields.ts'

/*
 * The contact form's rules, shared by the page (Conform constraints in the browser) and the action.
 * Names and replies are single-line or bounded text: a line break in the name could otherwise be
 * used to forge mail headers, so it is refused, not cleaned.
 */
/** The same list as the table's (checked in contact.server.ts); kept here so the browser bundle has no database code. */
export const CONTACT_SUBJECTS = ['booking', 'presse', 'autre'] as const
export type ContactSubjectValue = (typeof CONTACT_SUBJECTS)[number]

export const CONTACT_NAME_MAX = 100
export const CONTACT_MESSAGE_MIN = 10
export const CONTACT_MESSAGE_MAX = 5_000
export const CONTACT_REPLY_MAX = 10_000

// Control characters (line breaks included) are exactly what must not reach a mail header.
// oxlint-disable-next-line no-control-regex
const singleLine = /^[^\r\n\u0000-\u001f\u007f]*$/

export const ContactSchema = z.object({
	name: z
		.string({ error: 'Indiquez votre nom.' })
		.trim()
		.min(1, 'Indiquez votre nom.')
		.max(CONTACT_NAME_MAX, `Le nom ne peut pas dépasser ${CONTACT_NAME_MAX} caractères.`)
		.regex(singleLine, 'Le nom doit tenir sur une seule ligne.'),
	email: emailField,
	subject: z.enum(CONTACT_SUBJECTS, { error: 'Choisissez l’objet de votre message.' }),
	message: z
		.string({ error: 'Écrivez votre message.' })
		.trim()
		.min(CONTACT_MESSAGE_MIN, `Votre message est un peu court (${CONTACT_MESSAGE_MIN} caractères au moins).`)
		.max(CONTACT_MESSAGE_MAX, `Votre message est trop long : ${CONTACT_MESSAGE_MAX.toLocaleString('fr-FR')} caractères au plus.`),
	/** The honeypot: hidden from people, filled by naive bots. */
	website: z.string().max(500).optional(),
})

export type ContactInput = z.output<typeof ContactSchema>

export const ReplySchema = z.object({
	intent: z.literal('reply'),
	reply: z
		.string({ error: 'Écrivez votre réponse.' })
		.trim()
		.min(1, 'Écrivez votre réponse.')
		.max(CONTACT_REPLY_MAX, `La réponse est trop longue : ${CONTACT_REPLY_MAX.toLocaleString('fr-FR')} caractères au plus.`),
})
