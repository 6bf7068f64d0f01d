import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { emailField } from '#app/features/accounts/forms.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'
import { CONTACT_MESSAGE_MAX, CONTACT_MESSAGE_MIN, CONTACT_NAME_MAX, CONTACT_REPLY_MAX, CONTACT_SUBJECTS } from './rules.ts'

/*
 * The contact form's schemas: its page's loader turns them into Conform constraints, its action checks with them.
 * Names and replies are single-line or bounded text: a line break in the name could otherwise be
 * used to forge mail headers, so it is refused, not cleaned.
 */
// Control characters (line breaks included) are exactly what must not reach a mail header.
// oxlint-disable-next-line no-control-regex
const singleLine = /^[^\r\n\u0000-\u001f\u007f]*$/

export const ContactSchema = z.object({
	// Line breaks pass the shared rule to get the specific « une seule ligne » message below.
	name: textField({ multiline: true, error: lazyT('contact.validation.nameRequired') })
		.trim()
		.min(1, { error: lazyT('contact.validation.nameRequired') })
		.max(CONTACT_NAME_MAX, { error: lazyT('contact.validation.nameMax', { max: CONTACT_NAME_MAX }) })
		.regex(singleLine, { error: lazyT('contact.validation.nameSingleLine') }),
	email: emailField,
	subject: z.enum(CONTACT_SUBJECTS, { error: lazyT('contact.validation.subject') }),
	message: textField({ multiline: true, error: lazyT('contact.validation.messageRequired') })
		.trim()
		.min(CONTACT_MESSAGE_MIN, { error: lazyT('contact.validation.messageMin', { min: CONTACT_MESSAGE_MIN }) })
		.max(CONTACT_MESSAGE_MAX, {
			error: lazyT('contact.validation.messageMax', { max: frenchInteger(CONTACT_MESSAGE_MAX) }),
		}),
	/** The honeypot: hidden from people, filled by naive bots. */
	website: textField().max(500).optional(),
})

export type ContactInput = z.output<typeof ContactSchema>

export const ReplySchema = z.object({
	intent: z.literal('reply'),
	reply: textField({ multiline: true, error: lazyT('contact.validation.replyRequired') })
		.trim()
		.min(1, { error: lazyT('contact.validation.replyRequired') })
		.max(CONTACT_REPLY_MAX, { error: lazyT('contact.validation.replyMax', { max: frenchInteger(CONTACT_REPLY_MAX) }) }),
})
