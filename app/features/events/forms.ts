import type { CoordinateSource } from '#app/platform/db/schema.ts'
import { z } from 'zod'
import { EVENT_STATUSES } from '#app/platform/db/event-status.ts'
import { textField } from '#app/platform/text-field.ts'
import { parisWallClockToInstant, parseWallClock } from '#app/platform/time-zone.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'
import type { EventFields } from './types.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'

/*
 * The event editor's form: one Zod schema for the browser's constraints (handed over by the
 * loader, so Zod never reaches the browser) and the server's validation, with its French messages.
 * Field names are the event's column names. Dates are Paris wall-clock times, as
 * <input type="datetime-local"> gives them; `eventValuesFrom` turns a valid form into the row.
 */

export const EVENT_LIMITS = {
	title: 120,
	venueName: 120,
	city: 80,
	address: 200,
	postalCode: 12,
	ticketUrl: 500,
	priceText: 60,
	description: 10_000,
} as const

/** The years a date may fall in: wide enough for an archive of old shows, narrow enough to catch a typo. */
const YEAR_MIN = 1950
const YEAR_MAX = 2100

/** The form's messages (keys of translation.json), looked up when a value is refused (app/i18n/schema-messages.ts). */
const MESSAGES = {
	title: lazyT('admin.events.validation.title'),
	titleMax: lazyT('admin.events.validation.titleMax', { max: EVENT_LIMITS.title }),
	startsAt: lazyT('admin.events.validation.startsAt'),
	date: lazyT('admin.events.validation.date'),
	endAfterStart: lazyT('admin.events.validation.endAfterStart'),
	doorsBeforeStart: lazyT('admin.events.validation.doorsBeforeStart'),
	previousRequired: lazyT('admin.events.validation.previousRequired'),
	venueName: lazyT('admin.events.validation.venueName'),
	venueNameMax: lazyT('admin.events.validation.venueNameMax', { max: EVENT_LIMITS.venueName }),
	address: lazyT('admin.events.validation.address', { max: EVENT_LIMITS.address }),
	postalCode: lazyT('admin.events.validation.postalCode', { max: EVENT_LIMITS.postalCode }),
	city: lazyT('admin.events.validation.city'),
	cityMax: lazyT('admin.events.validation.cityMax', { max: EVENT_LIMITS.city }),
	country: lazyT('admin.events.validation.country'),
	countryUnknown: lazyT('admin.events.validation.countryUnknown'),
	latitude: lazyT('admin.events.validation.latitude'),
	longitude: lazyT('admin.events.validation.longitude'),
	bothCoordinates: lazyT('admin.events.validation.bothCoordinates'),
	ticketUrl: lazyT('admin.events.validation.ticketUrl'),
	ticketUrlMax: lazyT('admin.events.validation.ticketUrlMax', { max: EVENT_LIMITS.ticketUrl }),
	priceText: lazyT('admin.events.validation.priceText', { max: EVENT_LIMITS.priceText }),
	status: lazyT('admin.events.validation.status'),
	description: lazyT('admin.events.validation.description', { max: frenchInteger(EVENT_LIMITS.description) }),
	cover: lazyT('admin.events.validation.cover'),
} as const

export const EVENT_FORM_MESSAGES = MESSAGES

/** A date typed in a datetime-local field that names a real moment of a sensible year. */
export function isValidEventDate(value: string): boolean {
	const wall = parseWallClock(value)
	return wall !== null && wall.year >= YEAR_MIN && wall.year <= YEAR_MAX
}

const regionNames = new Intl.DisplayNames(['fr'], { type: 'region', fallback: 'none' })
/** Codes that name no country (unknown region, groupings, pseudo-locales, the reserved UK). */
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO', 'UK', 'XA', 'XB'])

/** An ISO 3166-1 alpha-2 country code, in capitals: FR, BE, CH… */
export function isCountryCode(code: string): boolean {
	if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false
	try {
		return regionNames.of(code) !== undefined
	} catch {
		return false
	}
}

/** « Belgique » for « be » or « BE »; null for what is not a country (the same check as the form's). */
export function countryName(code: string | undefined): string | null {
	const upper = (code ?? '').trim().toUpperCase()
	return isCountryCode(upper) ? (regionNames.of(upper) ?? null) : null
}

/** « 48,8566 », « -2.35 », « −0,5 »: a decimal number written the French way or not; null otherwise. */
export function parseCoordinate(value: string): number | null {
	const normalised = value.trim().replace(/^[−–]/, '-').replace(',', '.')
	if (!/^[+-]?\d{1,3}(\.\d{1,12})?$/.test(normalised)) return null
	const number = Number(normalised)
	return Number.isFinite(number) ? number : null
}

/** A latitude or longitude field: empty, or a decimal within ±limit degrees. */
function coordinate(limit: number, error: (typeof MESSAGES)['latitude']) {
	return textField()
		.trim()
		.refine(
			(value) => {
				if (value === '') return true
				const number = parseCoordinate(value)
				return number !== null && number >= -limit && number <= limit
			},
			{ error },
		)
		.optional()
}

/** A ticket office's address: http or https to a host, nothing else (no javascript:, data:, mailto:…). */
export function isWebAddress(value: string): boolean {
	if (!/^https?:\/\/[^\s/?#]/i.test(value) || /[\s<>"\\^`{|}]/.test(value)) return false
	try {
		const url = new URL(value)
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
	} catch {
		return false
	}
}

type Message = () => string

const requiredText = (max: number, missing: Message, tooLong: Message) =>
	textField({ error: missing }).trim().min(1, { error: missing }).max(max, { error: tooLong })
const optionalText = (max: number, tooLong: Message) => textField().trim().max(max, { error: tooLong }).optional()
const requiredDate = (missing: Message) =>
	textField({ error: missing }).trim().min(1, { error: missing, abort: true }).refine(isValidEventDate, { error: MESSAGES.date })
const optionalDate = () =>
	textField()
		.trim()
		.refine((value) => value === '' || isValidEventDate(value), { error: MESSAGES.date })
		.optional()

const fields = z.object({
	title: requiredText(EVENT_LIMITS.title, MESSAGES.title, MESSAGES.titleMax),
	status: z.enum(EVENT_STATUSES, { error: MESSAGES.status }),
	previousStartsAt: optionalDate(),
	doorsAt: optionalDate(),
	startsAt: requiredDate(MESSAGES.startsAt),
	endsAt: optionalDate(),
	venueName: requiredText(EVENT_LIMITS.venueName, MESSAGES.venueName, MESSAGES.venueNameMax),
	address: optionalText(EVENT_LIMITS.address, MESSAGES.address),
	postalCode: optionalText(EVENT_LIMITS.postalCode, MESSAGES.postalCode),
	city: requiredText(EVENT_LIMITS.city, MESSAGES.city, MESSAGES.cityMax),
	country: textField({ error: MESSAGES.country })
		.trim()
		.toUpperCase()
		.refine((code) => /^[A-Z]{2}$/.test(code), { error: MESSAGES.country, abort: true })
		.refine(isCountryCode, { error: MESSAGES.countryUnknown }),
	latitude: coordinate(90, MESSAGES.latitude),
	longitude: coordinate(180, MESSAGES.longitude),
	ticketUrl: textField()
		.trim()
		.max(EVENT_LIMITS.ticketUrl, { error: MESSAGES.ticketUrlMax, abort: true })
		.refine(isWebAddress, { error: MESSAGES.ticketUrl })
		.optional(),
	priceText: optionalText(EVENT_LIMITS.priceText, MESSAGES.priceText),
	// Line breaks counted as the browser counts them (one character), whatever it sends.
	description: textField({ multiline: true })
		.transform((text) => text.replace(/\r\n?/g, '\n'))
		.pipe(textField({ multiline: true }).max(EVENT_LIMITS.description, { error: MESSAGES.description }))
		.optional(),
	coverId: textField()
		.trim()
		.max(64, { error: MESSAGES.cover, abort: true })
		.refine((id) => /^[A-Za-z0-9_-]+$/.test(id), { error: MESSAGES.cover })
		.optional(),
})

/** Reads a date field of the (possibly partly invalid) value under check. */
function instantOf(value: unknown): number | null {
	if (typeof value !== 'string' || !isValidEventDate(value)) return null
	return parisWallClockToInstant(value)?.getTime() ?? null
}

/**
 * The rules between fields. They run even when another field is wrong (`when`), so that every
 * error shows at once rather than one round after another.
 */
export const EventFormSchema = fields.superRefine(
	(value, ctx) => {
		const v = value as Partial<Record<keyof typeof value, unknown>>
		const start = instantOf(v.startsAt)
		const end = instantOf(v.endsAt)
		const doors = instantOf(v.doorsAt)
		if (start !== null && end !== null && end <= start) {
			ctx.addIssue({ code: 'custom', path: ['endsAt'], message: MESSAGES.endAfterStart() })
		}
		if (start !== null && doors !== null && doors >= start) {
			ctx.addIssue({ code: 'custom', path: ['doorsAt'], message: MESSAGES.doorsBeforeStart() })
		}
		if (v.status === 'postponed' && (typeof v.previousStartsAt !== 'string' || v.previousStartsAt.trim() === '')) {
			ctx.addIssue({ code: 'custom', path: ['previousStartsAt'], message: MESSAGES.previousRequired() })
		}
		const hasLatitude = typeof v.latitude === 'string' && v.latitude.trim() !== ''
		const hasLongitude = typeof v.longitude === 'string' && v.longitude.trim() !== ''
		if (hasLatitude && !hasLongitude) ctx.addIssue({ code: 'custom', path: ['longitude'], message: MESSAGES.bothCoordinates() })
		if (hasLongitude && !hasLatitude) ctx.addIssue({ code: 'custom', path: ['latitude'], message: MESSAGES.bothCoordinates() })
	},
	{ when: () => true },
)

/** What the form sends, field by field (every value a string, as the browser sends it). */
export type EventFormInput = z.input<typeof EventFormSchema>
export type EventFormOutput = z.output<typeof EventFormSchema>

/** An event's editable values, as stored. */
export interface EventValues extends EventFields {
	description: string
	coverId: string | null
	/** Set by the save from the town list (features/events/venue-place.server.ts), never by the form. */
	townId?: number | null
	coordinatesSource?: CoordinateSource | null
}

const orNull = (text: string | undefined) => (text && text.trim() !== '' ? text : null)
const dateOrNull = (text: string | undefined) => (text ? parisWallClockToInstant(text) : null)

/** The row's values from a form the schema accepted. */
export function eventValuesFrom(form: EventFormOutput): EventValues {
	const latitude = form.latitude ? parseCoordinate(form.latitude) : null
	const longitude = form.longitude ? parseCoordinate(form.longitude) : null
	const bothCoordinates = latitude !== null && longitude !== null
	return {
		title: form.title,
		status: form.status,
		// A date planned first only means something for a postponed show.
		previousStartsAt: form.status === 'postponed' ? dateOrNull(form.previousStartsAt) : null,
		doorsAt: dateOrNull(form.doorsAt),
		startsAt: parisWallClockToInstant(form.startsAt)!,
		endsAt: dateOrNull(form.endsAt),
		venueName: form.venueName,
		address: orNull(form.address),
		postalCode: orNull(form.postalCode),
		city: form.city,
		country: form.country,
		latitude: bothCoordinates ? latitude : null,
		longitude: bothCoordinates ? longitude : null,
		ticketUrl: orNull(form.ticketUrl),
		priceText: orNull(form.priceText),
		description: (form.description ?? '').replace(/\s+$/, ''),
		coverId: orNull(form.coverId),
	}
}
