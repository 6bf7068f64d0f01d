import { randomBytes } from 'node:crypto'
import { encodeWord, encodeWords } from 'nodemailer/lib/mime-funcs'
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp'
import type { Env } from '#app/platform/env.server.ts'
import { oneClickUrl, TOWN_PLACEHOLDER, townUrl, UNSUBSCRIBE_PLACEHOLDER, unsubscribeUrl, type RenderedCampaign } from './mails.tsx'

/*
 * The MIME message of each recipient's copy of a campaign. What is the same for everyone (the
 * headers, the rendered template, already encoded in quoted-printable) is prepared once; each copy
 * only gets its address, its message id and its own unsubscribe links, the only bytes encoded per
 * recipient. A general-purpose composer takes milliseconds per message; this takes a few
 * microseconds, which is what lets a campaign go out at thousands of messages a second.
 */

export interface CampaignMessage {
	/** The address the relay is told the message comes from (MAIL FROM). */
	envelopeFrom: string
	/** The recipient's copy, every line ending in CRLF (as SMTP carries it). */
	build(recipient: { to: string; token: string; messageKey: string }): Buffer
}

const ascii = /^[\x20-\x7e]*$/

function fromHeader(from: string): { header: string; address: string } {
	const match = /^\s*"?([^"<]*?)"?\s*<([^<>]+)>\s*$/.exec(from)
	if (!match) return { header: from.trim(), address: from.trim() }
	const [, name = '', address = ''] = match
	if (!name) return { header: `<${address}>`, address }
	const display = ascii.test(name) ? `"${name.replace(/["\\]/g, '')}"` : encodeWord(name, 'Q', 52)
	return { header: `${display} <${address}>`, address }
}

export function prepareCampaignMessage(env: Env, input: { from: string; subject: string; rendered: RenderedCampaign }): CampaignMessage {
	const host = new URL(env.SITE_URL).hostname
	// The mailto alternative goes to a mailbox someone reads (RFC 2369), or is left out: a mail client
	// offering it would otherwise send the request nowhere. The one-click HTTPS link is always there.
	const mailbox = env.NEWSLETTER_UNSUBSCRIBE_EMAIL ?? env.CONTACT_EMAIL
	const mailto = mailbox ? `, <mailto:${mailbox}?subject=unsubscribe>` : ''
	const from = fromHeader(input.from)
	const boundary = `--_band_${randomBytes(12).toString('hex')}`
	const subject = ascii.test(input.subject) ? input.subject : encodeWords(input.subject, 'Q', 52, true)
	const common = [
		`From: ${from.header}`,
		`Subject: ${subject}`,
		'MIME-Version: 1.0',
		`List-Id: <newsletter.${host}>`,
		'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
		'Precedence: bulk',
		'Auto-Submitted: auto-generated',
		`Content-Type: multipart/alternative; boundary="${boundary}"`,
	].join('\r\n')
	const html = encodedAround(input.rendered.html)
	const text = encodedAround(input.rendered.text)
	const part = (type: string) =>
		Buffer.from(`--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n`)
	const textHead = part('text/plain')
	const htmlHead = part('text/html')
	const crlf = Buffer.from('\r\n')
	const end = Buffer.from(`--${boundary}--\r\n`)
	return {
		envelopeFrom: from.address,
		build({ to, token, messageKey }) {
			const links = {
				[UNSUBSCRIBE_PLACEHOLDER]: Buffer.from(qpWrap(qpEncode(unsubscribeUrl(env, token)), 76)),
				[TOWN_PLACEHOLDER]: Buffer.from(qpWrap(qpEncode(townUrl(env, token)), 76)),
			}
			const head = [
				common,
				`To: <${to}>`,
				`Date: ${new Date().toUTCString().replace(/GMT$/, '+0000')}`,
				`Message-ID: <${messageKey}@${host}>`,
				`List-Unsubscribe: <${oneClickUrl(env, token)}>${mailto}`,
			].join('\r\n')
			return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), textHead, ...text(links), crlf, htmlHead, ...html(links), crlf, end])
		},
	}
}

/** A soft line break: nothing in the decoded text, a fresh line in the encoded one. */
const SOFT_BREAK = Buffer.from('=\r\n')

/**
 * A body encoded once around its unsubscribe placeholders: each static piece is encoded and wrapped
 * on its own lines (soft breaks between them), so that a recipient's link, encoded alone, goes in
 * between without encoding or wrapping the rest again. Decoded, it is exactly the body with the link.
 */
function encodedAround(body: string): (links: Record<string, Buffer>) => Buffer[] {
	// Line ends as SMTP carries them (CRLF) from the start, so that each copy can go to the relay as it
	// is (platform/mail/bulk-smtp.server.ts) instead of being rewritten byte by byte. Split around
	// either placeholder, each kept (odd indexes) to say which link goes there.
	const parts = body.split(PLACEHOLDERS)
	const pieces = parts.map((part, i) => (i % 2 === 1 ? part : Buffer.from(qpWrap(qpEncode(part), 76).replace(/\r?\n/g, '\r\n'))))
	return (links) => {
		const out: Buffer[] = []
		pieces.forEach((piece) => {
			if (typeof piece === 'string') out.push(SOFT_BREAK, links[piece]!, SOFT_BREAK)
			else out.push(piece)
		})
		return out
	}
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const PLACEHOLDERS = new RegExp(`(${escape(UNSUBSCRIBE_PLACEHOLDER)}|${escape(TOWN_PLACEHOLDER)})`)
