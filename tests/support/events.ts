import { randomBytes, randomUUID } from 'node:crypto'
import type { Db } from '#app/platform/db/client.server.ts'
import { event, media, type MediaVariant } from '#app/platform/db/schema.ts'

/*
 * Events written straight into a database, for tests and for the demo seed (scripts/seed-demo.ts):
 * the public pages read them exactly as the admin editor would have saved them.
 */

export type NewEvent = typeof event.$inferInsert

const DAY = 24 * 60 * 60 * 1000

/** An instant `days` from `from`, at the given Paris wall-clock hour (winter or summer time alike). */
export function daysFrom(days: number, hour = 20, minute = 30, from: Date = new Date()): Date {
	const base = new Date(from.getTime() + days * DAY)
	// Paris is UTC+1 or UTC+2: find the offset of that day and place the local time on it.
	const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(base)
	for (const offset of [2, 1]) {
		const candidate = new Date(`${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00+0${offset}:00`)
		const seen = new Intl.DateTimeFormat('en-GB', {
			timeZone: 'Europe/Paris',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		}).format(candidate)
		if (seen === `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`) return candidate
	}
	return new Date(`${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00+01:00`)
}

export function newId(): string {
	return randomBytes(9).toString('base64url')
}

export async function insertEvent(db: Db, values: Partial<NewEvent> & { title: string; startsAt: Date }): Promise<string> {
	const id = values.id ?? newId()
	await db.insert(event).values({
		venueName: 'La Cigale',
		address: '120 boulevard de Rochechouart',
		postalCode: '75018',
		city: 'Paris',
		country: 'FR',
		published: true,
		publishedAt: new Date(),
		...values,
		id,
	})
	return id
}

/** A ready cover image (its media row only: the files are the caller's business). */
export async function insertCover(
	db: Db,
	options: { width?: number; height?: number; alt?: string; widths?: number[]; id?: string } = {},
): Promise<{ id: string; variants: MediaVariant[] }> {
	const id = options.id ?? randomUUID()
	const width = options.width ?? 1600
	const height = options.height ?? 1000
	const variants: MediaVariant[] = []
	for (const w of options.widths ?? [480, 960, 1200, 1600]) {
		if (w > width) continue
		const h = Math.round((height * w) / width)
		for (const format of ['avif', 'webp', 'jpeg'] as const) {
			variants.push({ format, width: w, height: h, key: `img/${id}/${w}.${format === 'jpeg' ? 'jpg' : format}`, bytes: 1000 })
		}
	}
	await db.insert(media).values({
		id,
		kind: 'cover',
		status: 'ready',
		progress: 100,
		originalKey: `originals/${id}.jpg`,
		width,
		height,
		variants,
		alt: options.alt ?? '',
	})
	return { id, variants }
}
