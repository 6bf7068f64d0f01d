import { textColourOn } from './colour.ts'
import type { Env } from './env.server.ts'
import { MailAction, MailLayout, MailParagraph, type MailIdentity } from './mail/layout.tsx'
import type { Mailer } from './mail/mailer.server.ts'
import { getT } from './i18n.server.ts'

/*
 * The identity layer's own e-mails: verify an address, reset a password, confirm an e-mail change,
 * and the notices that tell a member something changed on their account. Every link lands on
 * /auth/claim, which shows a page on GET and acts only on POST.
 */
export function claimUrl(env: Env, mode: string, token: string, extra: Record<string, string> = {}) {
	const params = new URLSearchParams({ mode, token, ...extra })
	return `${env.SITE_URL}/auth/claim?${params}`
}

export function mailIdentity(env: Env): MailIdentity {
	return { bandName: env.BAND_NAME, accent: env.ACCENT_COLOR, onAccent: textColourOn(env.ACCENT_COLOR), siteUrl: env.SITE_URL }
}

function firstName(name: string) {
	return name.trim().split(/\s+/)[0] || name
}

export function createAuthEmails(env: Env, mailer: Mailer) {
	const identity = mailIdentity(env)
	const t = getT()
	return {
		verifyEmail(user: { name: string; email: string }, token: string, redirectTo: string | null = null) {
			const href = claimUrl(env, 'verifyEmail', token, redirectTo ? { redirectTo } : {})
			return mailer.sendMail({
				kind: 'verify-email',
				origin: 'visitor',
				to: user.email,
				subject: `${t('mail.auth.verifyEmail.subject')} – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview={t('mail.auth.verifyEmail.preview')} title={t('mail.auth.verifyEmail.subject')}>
						<MailParagraph>{t('mail.greeting', { name: firstName(user.name) })}</MailParagraph>
						<MailParagraph>{t('mail.auth.verifyEmail.body')}</MailParagraph>
						<MailAction identity={identity} href={href} label={t('mail.auth.verifyEmail.action')} />
						<MailParagraph>{t('mail.auth.verifyEmail.notYou')}</MailParagraph>
					</MailLayout>
				),
			})
		},
		resetPassword(user: { name: string; email: string }, token: string) {
			const href = claimUrl(env, 'resetPassword', token)
			return mailer.sendMail({
				kind: 'reset-password',
				origin: 'visitor',
				to: user.email,
				subject: `${t('mail.auth.resetPassword.subject')} – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview={t('mail.auth.resetPassword.preview')} title={t('mail.auth.resetPassword.title')}>
						<MailParagraph>{t('mail.greeting', { name: firstName(user.name) })}</MailParagraph>
						<MailParagraph>{t('mail.auth.resetPassword.body')}</MailParagraph>
						<MailAction identity={identity} href={href} label={t('mail.auth.resetPassword.action')} />
						<MailParagraph>{t('mail.auth.resetPassword.notYou')}</MailParagraph>
					</MailLayout>
				),
			})
		},
		existingAccountSignUp(user: { name: string; email: string }) {
			const href = `${env.SITE_URL}/auth/forgot-password`
			return mailer.sendMail({
				kind: 'existing-account',
				origin: 'visitor',
				to: user.email,
				subject: `${t('mail.auth.existingAccount.subject')} – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview={t('mail.auth.existingAccount.preview')} title={t('mail.auth.existingAccount.subject')}>
						<MailParagraph>{t('mail.greeting', { name: firstName(user.name) })}</MailParagraph>
						<MailParagraph>{t('mail.auth.existingAccount.body')}</MailParagraph>
						<MailAction identity={identity} href={href} label={t('mail.auth.resetPassword.action')} />
						<MailParagraph>{t('mail.auth.existingAccount.notYou')}</MailParagraph>
					</MailLayout>
				),
			})
		},
		changeEmail(user: { name: string; email: string }, newEmail: string, token: string) {
			const href = claimUrl(env, 'verifyEmail', token)
			return mailer.sendMail({
				kind: 'change-email',
				origin: 'visitor',
				to: newEmail,
				subject: `${t('mail.auth.changeEmail.subject')} – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview={t('mail.auth.changeEmail.preview')} title={t('mail.auth.changeEmail.subject')}>
						<MailParagraph>{t('mail.greeting', { name: firstName(user.name) })}</MailParagraph>
						<MailParagraph>{t('mail.auth.changeEmail.body')}</MailParagraph>
						<MailAction identity={identity} href={href} label={t('mail.auth.changeEmail.action')} />
						<MailParagraph>{t('mail.auth.changeEmail.notYou')}</MailParagraph>
					</MailLayout>
				),
			})
		},
		notice(kind: string, to: string, subject: string, title: string, paragraphs: string[]) {
			return mailer.sendMail({
				kind,
				// To an account's proven address, about something its owner (or an admin) did.
				origin: 'site',
				to,
				subject: `${subject} – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview={paragraphs[0] ?? title} title={title}>
						{paragraphs.map((text) => (
							<MailParagraph key={text}>{text}</MailParagraph>
						))}
					</MailLayout>
				),
			})
		},
	}
}

export type AuthEmails = ReturnType<typeof createAuthEmails>
