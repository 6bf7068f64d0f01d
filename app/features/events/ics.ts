/*
 * iCalendar (RFC 5545), written by hand: one VEVENT per show, times in UTC (no VTIMEZONE needed),
 * text escaped (§3.3.11), lines folded at 75 octets without splitting a UTF-8 character (§3.1),
 * CRLF everywhere. Deterministic: the same event gives the same bytes (DTSTAMP is the event's last
 * change, which is what §3.8.7.2 asks for when the object carries no METHOD).
 */

export interface IcsEvent {
	/** Globally unique and stable: `<event id>@<site host>`. */
	uid: string
	start: Date
	end: Date
	/** When the event last changed (DTSTAMP, LAST-MODIFIED). */
	updatedAt: Date
	createdAt?: Date
	summary: string
	location?: string
	description?: string
	url?: string
	cancelled?: boolean
	geo?: { latitude: number; longitude: number } | null
}

export interface IcsCalendar {
	/** PRODID, e.g. « -//Le Groupe//Site du groupe//FR ». */
	productId: string
	/** X-WR-CALNAME: how a subscribed calendar is named in the visitor's agenda. */
	name?: string
	description?: string
	/** How often a subscribed calendar should be fetched again (REFRESH-INTERVAL), in hours. */
	refreshHours?: number
	events: IcsEvent[]
}

/** TEXT value escaping: backslash, semicolon, comma, and line breaks as \n. */
export function escapeText(value: string): string {
	return (
		value
			.replace(/\\/g, '\\\\')
			.replace(/;/g, '\\;')
			.replace(/,/g, '\\,')
			.replace(/\r\n|\r|\n/g, '\\n')
			// Control characters are what this line removes (RFC 5545 forbids them in a text value).
			// oxlint-disable-next-line no-control-regex
			.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
	)
}

/** A UTC DATE-TIME: 20260314T193000Z. */
export function formatUtc(date: Date): string {
	return date
		.toISOString()
		.replace(/\.\d{3}Z$/, 'Z')
		.replace(/[-:]/g, '')
}

const encoder = new TextEncoder()

/** A content line folded into lines of at most 75 octets, continuation lines starting with a space. */
export function foldLine(line: string): string {
	if (encoder.encode(line).length <= 75) return line
	const out: string[] = []
	let current = ''
	let octets = 0
	// The first line holds 75 octets; each continuation holds 74 after its leading space.
	let limit = 75
	for (const char of line) {
		const size = encoder.encode(char).length
		if (octets + size > limit) {
			out.push(current)
			current = ''
			octets = 0
			limit = 74
		}
		current += char
		octets += size
	}
	out.push(current)
	return out.join('\r\n ')
}

function property(name: string, value: string): string {
	return foldLine(`${name}:${value}`)
}

function eventLines(event: IcsEvent): string[] {
	const lines = [
		'BEGIN:VEVENT',
		property('UID', escapeText(event.uid)),
		property('DTSTAMP', formatUtc(event.updatedAt)),
		property('DTSTART', formatUtc(event.start)),
		property('DTEND', formatUtc(event.end > event.start ? event.end : new Date(event.start.getTime() + 60 * 60 * 1000))),
		property('SUMMARY', escapeText(event.summary)),
	]
	if (event.location) lines.push(property('LOCATION', escapeText(event.location)))
	if (event.geo && Number.isFinite(event.geo.latitude) && Number.isFinite(event.geo.longitude)) {
		lines.push(property('GEO', `${event.geo.latitude};${event.geo.longitude}`))
	}
	if (event.description) lines.push(property('DESCRIPTION', escapeText(event.description)))
	if (event.url) lines.push(property('URL', event.url))
	lines.push(property('STATUS', event.cancelled ? 'CANCELLED' : 'CONFIRMED'))
	if (event.createdAt) lines.push(property('CREATED', formatUtc(event.createdAt)))
	lines.push(property('LAST-MODIFIED', formatUtc(event.updatedAt)))
	lines.push('TRANSP:OPAQUE', 'END:VEVENT')
	return lines
}

/** The whole VCALENDAR, CRLF line endings, ending with CRLF. */
export function buildCalendar(calendar: IcsCalendar): string {
	const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', property('PRODID', calendar.productId), 'CALSCALE:GREGORIAN']
	if (calendar.name) lines.push(property('X-WR-CALNAME', escapeText(calendar.name)), property('NAME', escapeText(calendar.name)))
	if (calendar.description) {
		lines.push(property('X-WR-CALDESC', escapeText(calendar.description)), property('DESCRIPTION', escapeText(calendar.description)))
	}
	if (calendar.refreshHours) {
		lines.push(`REFRESH-INTERVAL;VALUE=DURATION:PT${calendar.refreshHours}H`, `X-PUBLISHED-TTL:PT${calendar.refreshHours}H`)
	}
	for (const event of calendar.events) lines.push(...eventLines(event))
	lines.push('END:VCALENDAR')
	return lines.join('\r\n') + '\r\n'
}

/** A file name for the download: « 2026-03-14-release-party.ics ». */
export function icsFileName(day: string, title: string): string {
	const slug = title
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/œ/g, 'oe')
		.replace(/æ/g, 'ae')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60)
		.replace(/-+$/, '')
	return `${day}${slug ? `-${slug}` : ''}.ics`
}
