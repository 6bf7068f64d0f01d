import { textColourOn } from './colour.ts'
import type { Env } from './env.server.ts'
import { MailAction, MailLayout, MailParagraph, type MailIdentity } from './mail/layout.tsx'
import type { Mailer } from './mail/mailer.server.ts'

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
	return {
		verifyEmail(user: { name: string; email: string }, token: string, redirectTo: string | null = null) {
			const href = claimUrl(env, 'verifyEmail', token, redirectTo ? { redirectTo } : {})
			return mailer.sendMail({
				kind: 'verify-email',
				origin: 'visitor',
				to: user.email,
				subject: `Confirmez votre adresse e-mail – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview="Un clic pour confirmer votre adresse." title="Confirmez votre adresse e-mail">
						<MailParagraph>Bonjour {firstName(user.name)},</MailParagraph>
						<MailParagraph>
							Pour finaliser votre compte sur notre site, confirmez que cette adresse est bien la vôtre. Le lien est valable 24 heures.
						</MailParagraph>
						<MailAction identity={identity} href={href} label="Confirmer mon adresse" />
						<MailParagraph>Si vous n’avez pas créé de compte, ignorez ce message : rien ne sera fait sans ce clic.</MailParagraph>
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
				subject: `Choisir un nouveau mot de passe – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview="Votre lien pour choisir un nouveau mot de passe." title="Nouveau mot de passe">
						<MailParagraph>Bonjour {firstName(user.name)},</MailParagraph>
						<MailParagraph>
							Quelqu’un (vous, sans doute) a demandé à changer le mot de passe de votre compte. Ce lien est valable une heure et ne sert
							qu’une fois ; une fois le mot de passe changé, vos autres appareils seront déconnectés.
						</MailParagraph>
						<MailAction identity={identity} href={href} label="Choisir un nouveau mot de passe" />
						<MailParagraph>
							Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.
						</MailParagraph>
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
				subject: `Vous avez déjà un compte – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview="Quelqu’un a voulu créer un compte avec votre adresse." title="Vous avez déjà un compte">
						<MailParagraph>Bonjour {firstName(user.name)},</MailParagraph>
						<MailParagraph>
							Quelqu’un vient d’essayer de créer un compte avec votre adresse e-mail, alors qu’un compte existe déjà. Si c’était vous,
							connectez-vous simplement ; si vous avez oublié votre mot de passe, choisissez-en un nouveau.
						</MailParagraph>
						<MailAction identity={identity} href={href} label="Choisir un nouveau mot de passe" />
						<MailParagraph>Si ce n’était pas vous, ignorez ce message : votre compte n’a pas changé.</MailParagraph>
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
				subject: `Confirmez votre nouvelle adresse – ${env.BAND_NAME}`,
				body: (
					<MailLayout identity={identity} preview="Confirmez votre nouvelle adresse e-mail." title="Confirmez votre nouvelle adresse">
						<MailParagraph>Bonjour {firstName(user.name)},</MailParagraph>
						<MailParagraph>
							Vous avez demandé à utiliser cette adresse pour votre compte sur notre site. Confirmez-la pour terminer le changement.
						</MailParagraph>
						<MailAction identity={identity} href={href} label="Confirmer cette adresse" />
						<MailParagraph>Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.</MailParagraph>
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
