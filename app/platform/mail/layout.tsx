// One package per component: the `@react-email/components` bundle would load prismjs and Tailwind at start.
import { Body } from '@react-email/body'
import { Button } from '@react-email/button'
import { Container } from '@react-email/container'
import { Head } from '@react-email/head'
import { Heading } from '@react-email/heading'
import { Hr } from '@react-email/hr'
import { Html } from '@react-email/html'
import { Preview } from '@react-email/preview'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import type { ReactNode } from 'react'
import { getT } from '../i18n.server.ts'

export interface MailIdentity {
	bandName: string
	accent: string
	onAccent: string
	siteUrl: string
}

/** The frame of every e-mail: the band's name, the message, a short footer. French, light, plain. */
export function MailLayout(props: { identity: MailIdentity; preview: string; title: string; children: ReactNode; footer?: ReactNode }) {
	const { identity } = props
	return (
		<Html lang="fr" dir="ltr">
			<Head />
			<Preview>{props.preview}</Preview>
			<Body style={{ backgroundColor: '#f4f3ef', fontFamily: 'Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' }}>
				<Container style={{ backgroundColor: '#ffffff', maxWidth: 560, margin: '0 auto', borderRadius: 12, overflow: 'hidden' }}>
					<Section style={{ backgroundColor: '#111113', padding: '20px 32px' }}>
						<Text style={{ color: '#ffffff', fontSize: 22, fontWeight: 800, letterSpacing: 1, textTransform: 'uppercase', margin: 0 }}>
							{identity.bandName}
						</Text>
					</Section>
					<Section style={{ padding: '28px 32px 8px' }}>
						<Heading as="h1" style={{ fontSize: 24, lineHeight: '30px', color: '#111113', margin: '0 0 16px' }}>
							{props.title}
						</Heading>
						{props.children}
					</Section>
					<Section style={{ padding: '0 32px 28px' }}>
						<Hr style={{ borderColor: '#e6e4de', margin: '24px 0 16px' }} />
						<Text style={{ color: '#5d5b55', fontSize: 13, lineHeight: '20px', margin: 0 }}>
							{props.footer ?? getT()('mail.footer', { band: identity.bandName, site: identity.siteUrl.replace(/^https?:\/\//, '') })}
						</Text>
					</Section>
				</Container>
			</Body>
		</Html>
	)
}

export function MailParagraph(props: { children: ReactNode }) {
	return <Text style={{ color: '#2b2a27', fontSize: 16, lineHeight: '24px', margin: '0 0 16px' }}>{props.children}</Text>
}

/** The one call to action of a mail, with the address written out below for clients that hide buttons. */
export function MailAction(props: { identity: MailIdentity; href: string; label: string }) {
	return (
		<Section style={{ margin: '8px 0 20px' }}>
			<Button
				href={props.href}
				style={{
					backgroundColor: props.identity.accent,
					color: props.identity.onAccent,
					borderRadius: 999,
					padding: '14px 28px',
					fontSize: 16,
					fontWeight: 700,
					textDecoration: 'none',
				}}
			>
				{props.label}
			</Button>
			<Text style={{ color: '#5d5b55', fontSize: 13, lineHeight: '20px', margin: '16px 0 0', wordBreak: 'break-all' }}>
				{getT()('mail.copyAddress')} {props.href}
			</Text>
		</Section>
	)
}
