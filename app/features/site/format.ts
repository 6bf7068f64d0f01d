/** French formatting in Europe/Paris, the same on the server and in the browser. */
import { SITE_TIME_ZONE } from '#app/platform/time-zone.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'

const TIME_ZONE = SITE_TIME_ZONE

const dateFormat = new Intl.DateTimeFormat('fr-FR', {
	weekday: 'long',
	day: 'numeric',
	month: 'long',
	year: 'numeric',
	timeZone: TIME_ZONE,
})
const dayFormat = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: TIME_ZONE })
const timeFormat = new Intl.DateTimeFormat('fr-FR', { hour: 'numeric', minute: '2-digit', timeZone: TIME_ZONE })
const euroFormat = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' })

/**
 * The same few dates come back on every page (an event's, « membre depuis le … »), and Intl's
 * formatting in a named time zone costs some 10 µs a call: each format keeps what it wrote for the
 * last 500 instants it was given.
 */
function remembered(format: (date: Date) => string): (value: Date | string) => string {
	const known = new Map<number, string>()
	return (value) => {
		const date = new Date(value)
		const instant = date.getTime()
		let text = known.get(instant)
		if (text === undefined) {
			text = format(date)
			if (known.size >= 500) known.clear()
			known.set(instant, text)
		}
		return text
	}
}

/** « samedi 14 mars 2026 » */
export const formatDate = remembered((date) => dateFormat.format(date))

/** « 14 mars 2026 » (no weekday: for dates in a sentence, « membre depuis le … ») */
export const formatDay = remembered((date) => dayFormat.format(date))

/** « 20 h 30 », « 21 h » */
export const formatTime = remembered((date) => {
	const parts = timeFormat.formatToParts(date)
	const hour = parts.find((p) => p.type === 'hour')?.value ?? ''
	const minute = parts.find((p) => p.type === 'minute')?.value ?? '00'
	return minute === '00' ? `${Number(hour)} h` : `${Number(hour)} h ${minute}`
})

/** « samedi 14 mars 2026 à 20 h 30 » (the words between are the locale file's, for the server and the browser alike). */
export function formatDateTime(value: Date | string): string {
	return lazyT('common.dateAtTime', { date: formatDate(value), time: formatTime(value) })()
}

/** « 12,50 € », « 1 234,50 € » (CLDR's French: a no-break space before €, narrow ones between thousands). */
export function formatEuros(amount: number): string {
	return euroFormat.format(amount)
}
