import { createTransport, type SendMailOptions } from 'nodemailer'
import type { Env } from '#app/platform/env.server.ts'
import { randomToken } from '#app/platform/random-token.server.ts'
import { oneClickUrl, TOWN_PLACEHOLDER, townUrl, UNSUBSCRIBE_PLACEHOLDER, unsubscribeUrl, type RenderedCampaign } from './mails.tsx'

/*
 * The MIME message of each recipient's copy of a campaign, composed by nodemailer's stream transport
 * (its public API for « the message as bytes », which runs the same composer as every send). Composing a 13 kB message takes it milliseconds (6 ms on a busy 2-core machine), too slow for
 * thousands of copies a second, so it composes the campaign once, with marks where each copy
 * differs: the recipient's address, the message id, and the unsubscribe token in the
 * List-Unsubscribe header and in both bodies (the unsubscribe and town links). Each copy is that message with the marks replaced,
 * which costs microseconds. In the bodies (quoted-printable) a token goes between two soft line
 * breaks (« = » at a line's end, which decoding removes), so the lines around it keep their
 * length; a token's characters (those of encodeURIComponent) never need encoding there. A recipient
 * address that is not a plain ASCII one gets its copy composed whole instead.
 */

export interface CampaignMessage {
	/** The address the relay is told the message comes from (MAIL FROM). */
	envelopeFrom: string
	/** The Message-ID of the copy with this key. */
	messageId(messageKey: string): string
	/** The recipient's copy. */
	build(recipient: { to: string; token: string; messageKey: string }): Buffer | Promise<Buffer>
}

type Recipient = Parameters<CampaignMessage['build']>[0]

/** Composes a message into bytes and sends it nowhere; CRLF line ends, as SMTP carries them. */
const composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' })

async function composeMessage(options: SendMailOptions): Promise<{ message: Buffer; envelopeFrom: string }> {
	const info = await composer.sendMail(options)
	return { message: info.message as Buffer, envelopeFrom: info.envelope.from || '' }
}

/** An address written as it is in a header, with nothing to quote or encode (RFC 5322 dot-atom, ASCII domain). */
const PLAIN_ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/
/** A quoted-printable soft line break: nothing once decoded. */
const SOFT_BREAK = '=\r\n'
/** Longest run of literal characters on one quoted-printable line (76 with its soft break). */
const QP_RUN = 75

export async function prepareCampaignMessage(
	env: Env,
	input: { from: string; subject: string; rendered: RenderedCampaign },
): Promise<CampaignMessage> {
	const host = new URL(env.SITE_URL).hostname
	// The mailto alternative goes to a mailbox someone reads (RFC 2369), or is left out: a mail client
	// offering it would otherwise send the request nowhere. The one-click HTTPS link is always there.
	const mailbox = env.NEWSLETTER_UNSUBSCRIBE_EMAIL ?? env.CONTACT_EMAIL
	const mailto = mailbox ? `, <mailto:${mailbox}?subject=unsubscribe>` : ''
	const date = new Date()
	const messageId = (messageKey: string) => `<${messageKey}@${host}>`
	const options = ({ to, token, messageKey }: Recipient): SendMailOptions => {
		const link = unsubscribeUrl(env, token)
		// The page to change or remove one's town carries the same token: its mark is replaced with the others.
		const town = townUrl(env, token)
		return {
			from: input.from,
			to,
			subject: input.subject,
			messageId: messageId(messageKey),
			date,
			headers: {
				'List-Id': `<newsletter.${host}>`,
				'List-Unsubscribe': `<${oneClickUrl(env, token)}>${mailto}`,
				'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
				Precedence: 'bulk',
				'Auto-Submitted': 'auto-generated',
			},
			text: input.rendered.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, link).replaceAll(TOWN_PLACEHOLDER, town),
			html: input.rendered.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, link).replaceAll(TOWN_PLACEHOLDER, town),
			textEncoding: 'quoted-printable',
		}
	}

	// Marks no campaign contains: letters and digits only, which neither the headers nor quoted-printable change.
	const nonce = randomToken(12, 'hex')
	const marks = { to: `to${nonce}@recipient.invalid`, messageKey: `id${nonce}`, token: `tk${nonce}` }
	const template = await composeMessage(options(marks))
	const envelopeFrom = template.envelopeFrom
	const slots = templateSlots(template.message.toString('latin1'), marks)
	const plain = (recipient: Recipient) => PLAIN_ADDRESS.test(recipient.to)

	return {
		envelopeFrom,
		messageId,
		build(recipient) {
			if (!plain(recipient)) return composeMessage(options(recipient)).then(({ message }) => message)
			const token = encodeURIComponent(recipient.token)
			const values = {
				to: recipient.to,
				messageKey: recipient.messageKey,
				token,
				bodyToken: SOFT_BREAK + (token.match(new RegExp(`.{1,${QP_RUN}}`, 'g')) ?? []).join(SOFT_BREAK) + SOFT_BREAK,
			}
			const parts: Buffer[] = []
			for (const slot of slots) parts.push(typeof slot === 'string' ? Buffer.from(values[slot], 'latin1') : slot)
			return Buffer.concat(parts)
		},
	}
}

type Slot = 'to' | 'messageKey' | 'token' | 'bodyToken'

/**
 * The composed message cut at its marks: the bytes between them, and which value goes where. In the
 * bodies a mark may have been cut by a soft line break; its span, soft breaks included, is replaced.
 */
function templateSlots(message: string, marks: { to: string; messageKey: string; token: string }): (Buffer | Slot)[] {
	const spread = (mark: string) => [...mark].map((char) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('(?:=\\r?\\n)?')
	const kinds = Object.entries(marks) as [keyof typeof marks, string][]
	const pattern = new RegExp(kinds.map(([kind, mark]) => `(?<${kind}>${spread(mark)})`).join('|'), 'g')
	const bodyStart = message.search(/\r?\n\r?\n/)
	const slots: (Buffer | Slot)[] = []
	let last = 0
	for (const match of message.matchAll(pattern)) {
		const kind = kinds.find(([name]) => match.groups?.[name] !== undefined)![0]
		slots.push(Buffer.from(message.slice(last, match.index), 'latin1'))
		slots.push(kind === 'token' && match.index > bodyStart ? 'bodyToken' : kind)
		last = match.index + match[0].length
	}
	slots.push(Buffer.from(message.slice(last), 'latin1'))
	return slots
}
