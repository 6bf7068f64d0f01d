import { mailIdentity } from '#app/platform/auth-emails.server.tsx'
import type { Env } from '#app/platform/env.server.ts'
import { MailAction, MailLayout, MailParagraph } from '#app/platform/mail/layout.tsx'
import type { OutgoingMail } from '#app/platform/mail/mailer.server.ts'
import type { ContactSubjectValue } from './rules.ts'
import { getT } from '#app/platform/i18n.server.ts'

/** How each subject reads in French, as the contact page and the admin screen name it. */
function subjectLabel(subject: ContactSubjectValue): string {
	const t = getT()
	return { booking: t('contact.subjects.booking'), presse: t('contact.subjects.presse'), autre: t('contact.subjects.autre') }[subject]
}

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
	const t = getT()
	const label = subjectLabel(message.subject)
	return {
		kind: 'contact-notify',
		origin: 'site',
		to,
		subject: t('mail.contact.notifySubject', { subject: label, name: message.name }),
		headers: { 'Reply-To': message.email },
		body: (
			<MailLayout
				identity={identity}
				preview={message.body.slice(0, 120)}
				title={t('mail.contact.notifyTitle', { subject: label })}
				footer={t('mail.contact.notifyFooter')}
			>
				<MailParagraph>{t('mail.contact.from', { name: message.name, email: message.email })}</MailParagraph>
				<Paragraphs text={message.body} />
				<MailAction identity={identity} href={`${env.SITE_URL}/dashboard/admin/messages/${message.id}`} label={t('mail.contact.open')} />
			</MailLayout>
		),
	}
}

/** An admin's answer, sent to the sender with the original quoted below. */
export function replyMail(env: Env, message: StoredMessage, reply: string, contactEmail: string | undefined): OutgoingMail {
	const identity = mailIdentity(env)
	const t = getT()
	return {
		kind: 'contact-reply',
		origin: 'site',
		to: message.email,
		subject: t('mail.contact.replySubject', { subject: subjectLabel(message.subject), band: env.BAND_NAME }),
		headers: contactEmail ? { 'Reply-To': contactEmail } : undefined,
		body: (
			<MailLayout identity={identity} preview={reply.slice(0, 120)} title={t('mail.contact.replyTitle', { band: env.BAND_NAME })}>
				<Paragraphs text={reply} />
				<MailParagraph>—</MailParagraph>
				<MailParagraph>{t('mail.contact.yourMessage')}</MailParagraph>
				<Paragraphs text={message.body} />
			</MailLayout>
		),
	}
}
