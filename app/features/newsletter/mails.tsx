import { Section } from '@react-email/section'
import { mailIdentity } from '#app/platform/auth-emails.server.tsx'
import type { Env } from '#app/platform/env.server.ts'
import { MailAction, MailLayout, MailParagraph, type MailIdentity } from '#app/platform/mail/layout.tsx'
import { renderMarkdown } from '#app/features/site/markdown.server.ts'
import { CONFIRM_TTL_HOURS } from './rules.ts'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * The newsletter's e-mails: the campaign itself (the same template for the admin's preview, the test
 * send and every recipient), the double opt-in confirmation and the unsubscribe link on request.
 */

/** Stands for each recipient's own unsubscribe address in a campaign rendered once for all. */
export const UNSUBSCRIBE_PLACEHOLDER = 'https://unsubscribe.invalid/__NEWSLETTER_RECIPIENT__'

/** Stands for each recipient's own « change my town » address (features/towns), like the one above. */
export const TOWN_PLACEHOLDER = 'https://town.invalid/__NEWSLETTER_RECIPIENT__'

/** The page where a subscriber changes or removes their town: the same token as their unsubscribe link. */
export function townUrl(env: Env, token: string) {
	return `${env.SITE_URL}/newsletter/town?token=${encodeURIComponent(token)}`
}

export function unsubscribeUrl(env: Env, token: string) {
	return `${env.SITE_URL}/unsubscribe?token=${encodeURIComponent(token)}`
}
export function oneClickUrl(env: Env, token: string) {
	return `${env.SITE_URL}/unsubscribe/one-click?token=${encodeURIComponent(token)}`
}

/** Type for the body's HTML: mail clients ignore most stylesheets, so each element gets its style inline. */
const BODY_STYLES: Record<string, string> = {
	p: 'color:#2b2a27;font-size:16px;line-height:24px;margin:0 0 16px',
	h1: 'color:#111113;font-size:22px;line-height:28px;margin:24px 0 12px',
	h2: 'color:#111113;font-size:20px;line-height:26px;margin:24px 0 12px',
	h3: 'color:#111113;font-size:18px;line-height:24px;margin:20px 0 10px',
	ul: 'color:#2b2a27;font-size:16px;line-height:24px;margin:0 0 16px;padding-left:24px',
	ol: 'color:#2b2a27;font-size:16px;line-height:24px;margin:0 0 16px;padding-left:24px',
	blockquote: 'border-left:4px solid #e6e4de;margin:0 0 16px;padding:0 0 0 16px;color:#5d5b55',
	a: 'color:#111113;text-decoration:underline',
	hr: 'border:none;border-top:1px solid #e6e4de;margin:24px 0',
}

/** The campaign's Markdown as e-mail HTML: raw HTML escaped (never run), every element styled inline. */
export function campaignBodyHtml(markdown: string): string {
	return renderMarkdown(markdown).replace(/<(p|h1|h2|h3|ul|ol|blockquote|a|hr)(?=[\s>/])/g, (tag, name: string) => {
		return `${tag} style="${BODY_STYLES[name]}"`
	})
}

export function NewsletterMail(props: {
	identity: MailIdentity
	subject: string
	preheader: string
	bodyHtml: string
	unsubscribeUrl: string
	/** The recipient's page to change or remove their town (none in a test send). */
	townUrl?: string
}) {
	const { identity } = props
	const t = getT()
	return (
		<MailLayout
			identity={identity}
			preview={props.preheader || props.subject}
			title={props.subject}
			footer={
				<>
					{t('mail.newsletter.footer', { site: identity.siteUrl.replace(/^https?:\/\//, '') })}{' '}
					<a href={props.unsubscribeUrl} style={{ color: '#5d5b55', textDecoration: 'underline' }}>
						{t('mail.newsletter.unsubscribeLink')}
					</a>{' '}
					{t('mail.newsletter.unsubscribeAfter')}
					{props.townUrl ? (
						<>
							{' '}
							<a href={props.townUrl} style={{ color: '#5d5b55', textDecoration: 'underline' }}>
								{t('mail.newsletter.townLink')}
							</a>{' '}
							{t('mail.newsletter.townAfter')}
						</>
					) : null}
				</>
			}
		>
			<Section>
				<div dangerouslySetInnerHTML={{ __html: props.bodyHtml }} />
			</Section>
		</MailLayout>
	)
}

export interface RenderedCampaign {
	html: string
	text: string
}

/** Renders a campaign once; each recipient's copy replaces UNSUBSCRIBE_PLACEHOLDER with their own link. */
export async function renderCampaign(
	env: Env,
	campaign: { subject: string; preheader: string; body: string },
	unsubscribe = UNSUBSCRIBE_PLACEHOLDER,
): Promise<RenderedCampaign> {
	const element = (
		<NewsletterMail
			identity={mailIdentity(env)}
			subject={campaign.subject}
			preheader={campaign.preheader}
			bodyHtml={campaignBodyHtml(campaign.body)}
			unsubscribeUrl={unsubscribe}
			townUrl={unsubscribe === UNSUBSCRIBE_PLACEHOLDER ? TOWN_PLACEHOLDER : undefined}
		/>
	)
	// Loaded on first use, like the other mails' renderer (platform/mail/mailer.server.ts): start-up stays light.
	const { render, toPlainText } = await import('@react-email/render')
	const html = await render(element)
	return { html, text: toPlainText(html) }
}

export function personalise(rendered: RenderedCampaign, unsubscribe: string, town: string): RenderedCampaign {
	return {
		html: rendered.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, unsubscribe).replaceAll(TOWN_PLACEHOLDER, town),
		text: rendered.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, unsubscribe).replaceAll(TOWN_PLACEHOLDER, town),
	}
}

export function ConfirmSubscriptionMail(props: { identity: MailIdentity; href: string }) {
	const t = getT()
	return (
		<MailLayout identity={props.identity} preview={t('mail.newsletter.confirm.preview')} title={t('mail.newsletter.confirm.title')}>
			<MailParagraph>{t('mail.greetingNoName')}</MailParagraph>
			<MailParagraph>{t('mail.newsletter.confirm.body', { band: props.identity.bandName, hours: CONFIRM_TTL_HOURS })}</MailParagraph>
			<MailAction identity={props.identity} href={props.href} label={t('mail.newsletter.confirm.action')} />
			<MailParagraph>{t('mail.newsletter.confirm.notYou')}</MailParagraph>
		</MailLayout>
	)
}

export function UnsubscribeLinkMail(props: { identity: MailIdentity; href: string }) {
	const t = getT()
	return (
		<MailLayout identity={props.identity} preview={t('mail.newsletter.unsubscribe.preview')} title={t('mail.newsletter.unsubscribe.title')}>
			<MailParagraph>{t('mail.greetingNoName')}</MailParagraph>
			<MailParagraph>{t('mail.newsletter.unsubscribe.body', { band: props.identity.bandName })}</MailParagraph>
			<MailAction identity={props.identity} href={props.href} label={t('mail.newsletter.unsubscribe.action')} />
			<MailParagraph>{t('mail.newsletter.unsubscribe.notYou')}</MailParagraph>
		</MailLayout>
	)
}
