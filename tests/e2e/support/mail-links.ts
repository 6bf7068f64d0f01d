/*
 * Reading the mails the site really sent (to the test's SMTP server, parsed by mailparser) the way a
 * member does: find the mail by its subject, then the button in its HTML by its words, and check
 * that the plain-text part carries the same link for mail clients that show no HTML.
 */
import assert from 'node:assert/strict'
import { h } from './harness.ts'
import type { ReceivedMail } from './mailbox.ts'

/** Every mail received so far for this address whose subject starts with `subject`. */
export function mailsTo(address: string, subject: string): ReceivedMail[] {
	const to = address.toLowerCase()
	return h.mailbox.mails.filter((mail) => mail.to.includes(to) && mail.subject.startsWith(subject))
}

/** Waits for a mail to `address` whose subject starts with `subject`, other than those in `seen`. */
export function waitForMail(address: string, subject: string, seen: ReceivedMail[] = [], timeoutMs = 20_000): Promise<ReceivedMail> {
	return h.mailbox.waitFor(address, (mail) => mail.subject.startsWith(subject) && !seen.includes(mail), timeoutMs)
}

function decodeEntities(value: string): string {
	return value
		.replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
		.replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
		.replace(/&nbsp;/g, ' ')
		.replace(/&quot;/g, '"')
		.replace(/&#x27;|&apos;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&')
}

/** The links of the mail's HTML part: where each points, and the words a reader sees on it. */
export function htmlLinks(mail: ReceivedMail): { href: string; label: string }[] {
	return [...mail.html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)].flatMap((match) => {
		const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(match[1] ?? '')
		if (!href) return []
		const label = decodeEntities((match[2] ?? '').replace(/<[^>]*>/g, ' '))
			// Mail templates pad buttons with zero-width characters: a reader does not see them.
			.replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
			.replace(/\s+/g, ' ')
			.trim()
		return [{ href: decodeEntities(href[1] ?? href[2] ?? ''), label }]
	})
}

/**
 * The site link behind the button labelled `label` in the mail's HTML. The text part must carry the
 * very same address. Returns it as a URL on the test site.
 */
export function buttonLink(mail: ReceivedMail, label: string): URL {
	const links = htmlLinks(mail)
	const found = links.find((link) => link.label === label)
	assert.ok(
		found,
		`no « ${label} » link in the mail « ${mail.subject} »; its links: ${links.map((l) => `« ${l.label} » → ${l.href}`).join(', ') || '(none)'}`,
	)
	const url = new URL(found.href)
	assert.equal(url.origin, h.origin, `the « ${label} » link leaves the site: ${found.href}`)
	assert.ok(
		mail.text.includes(found.href),
		`the text part of « ${mail.subject} » does not carry the link ${found.href}:\n${mail.text.slice(0, 1500)}`,
	)
	return url
}

/** Path and query of a URL, for page.goto on the test site. */
export function pathAndQuery(url: URL): string {
	return url.pathname + url.search
}
