import { mailIdentity } from '#app/platform/auth-emails.server.tsx'
import type { Env } from '#app/platform/env.server.ts'
import { MailAction, MailLayout, MailParagraph } from '#app/platform/mail/layout.tsx'
import type { OutgoingMail } from '#app/platform/mail/mailer.server.ts'
import type { ContactSubjectValue } from './limits.ts'

/** How each subject reads in French, in mails and on the admin screen. */
export const SUBJECT_LABELS: Record<ContactSubjectValue, string> = { booking: 'Booking', presse: 'Presse', autre: 'Autre' }

interface StoredMessage {
	id: string
	name: string
	email: string
	subject: ContactSubjectValue
	body: string
}

/** A message's text, paragraph by paragraph (the mail layout escapes it as text: no HTML gets through). */
function Paragraphs(props: { text: string }) {
	return (
		<>
			{props.text.split(/\n{2,}/).map((paragraph, index) => (
				<MailParagraph key={index}>
					{paragraph.split('\n').map((line, i) => (
						<span key={i}>
							{i > 0 ? <br /> : null}
							{line}
						</span>
					))}
				</MailParagraph>
			))}
		</>
	)
}

/** To the band: the message, with Reply-To set to the sender so that « Répondre » reaches them. */
export function notifyBandMail(env: Env, to: string, message: StoredMessage): OutgoingMail {
	const identity = mailIdentity(env)
	const label = SUBJECT_LABELS[message.subject]
	return {
		kind: 'contact-notify',
		origin: 'site',
		to,
		subject: `[Contact · ${label}] ${message.name}`,
		headers: { 'Reply-To': message.email },
		body: (
			<MailLayout
				identity={identity}
				preview={message.body.slice(0, 120)}
				title={`Nouveau message : ${label}`}
				footer="Message reçu par le formulaire de contact du site."
			>
				<MailParagraph>
					De {message.name} ({message.email})
				</MailParagraph>
				<Paragraphs text={message.body} />
				<MailAction
					identity={identity}
					href={`${env.SITE_URL}/dashboard/admin/messages/${message.id}`}
					label="Ouvrir dans l’administration"
				/>
			</MailLayout>
		),
	}
}

/** An admin's answer, sent to the sender with the original quoted below. */
export function replyMail(env: Env, message: StoredMessage, reply: string, contactEmail: string | undefined): OutgoingMail {
	const identity = mailIdentity(env)
	return {
		kind: 'contact-reply',
		origin: 'site',
		to: message.email,
		subject: `Re: [${SUBJECT_LABELS[message.subject]}] – ${env.BAND_NAME}`,
		headers: contactEmail ? { 'Reply-To': contactEmail } : undefined,
		body: (
			<MailLayout identity={identity} preview={reply.slice(0, 120)} title={`Réponse de ${env.BAND_NAME}`}>
				<Paragraphs text={reply} />
				<MailParagraph>—</MailParagraph>
				<MailParagraph>Votre message :</MailParagraph>
				<Paragraphs text={message.body} />
			</MailLayout>
		),
	}
}
