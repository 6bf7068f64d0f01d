/** Dates as Paris calendar days, `YYYY-MM-DD` (what the stats count by). */
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' })

export function parisDay(date: Date = new Date()): string {
	return dayFormat.format(date)
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar day written YYYY-MM-DD, or null. */
export function parseDay(value: string | null | undefined): string | null {
	const match = value ? DAY_RE.exec(value) : null
	if (!match) return null
	const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
	return date.toISOString().slice(0, 10) === value ? value : null
}

/** The day `n` days after `day` (negative: before). */
export function addDays(day: string, n: number): string {
	const date = new Date(`${day}T00:00:00Z`)
	date.setUTCDate(date.getUTCDate() + n)
	return date.toISOString().slice(0, 10)
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
	const days: string[] = []
	for (let day = from; day <= to; day = addDays(day, 1)) days.push(day)
	return days
}
