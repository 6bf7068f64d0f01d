/** French formatting in Europe/Paris, the same on the server and in the browser. */
import { SITE_TIME_ZONE } from '#app/platform/time-zone.ts'

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

/** « samedi 14 mars 2026 » */
export function formatDate(value: Date | string): string {
	return dateFormat.format(new Date(value))
}

/** « 14 mars 2026 » (no weekday: for dates in a sentence, « membre depuis le … ») */
export function formatDay(value: Date | string): string {
	return dayFormat.format(new Date(value))
}

/** « 20 h 30 », « 21 h » */
export function formatTime(value: Date | string): string {
	const parts = timeFormat.formatToParts(new Date(value))
	const hour = parts.find((p) => p.type === 'hour')?.value ?? ''
	const minute = parts.find((p) => p.type === 'minute')?.value ?? '00'
	return minute === '00' ? `${Number(hour)} h` : `${Number(hour)} h ${minute}`
}

/** « samedi 14 mars 2026 à 20 h 30 » */
export function formatDateTime(value: Date | string): string {
	return `${formatDate(value)} à ${formatTime(value)}`
}

/** « 12,50 € », « 1 234,50 € » (CLDR's French: a no-break space before €, narrow ones between thousands). */
export function formatEuros(amount: number): string {
	return euroFormat.format(amount)
}
