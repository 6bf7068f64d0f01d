import { getZodConstraint } from '@conform-to/zod/v4'
import type { Db } from '#app/platform/db/client.server.ts'
import type { Flash } from '#app/platform/flash.server.ts'
import { mediaStatus } from '#app/features/media/media.server.ts'
import { renderMarkdown } from '#app/features/site/markdown.server.ts'
import type { EventRow } from './events.server.ts'
import { DEFAULT_DURATION_MS, DESCRIPTION_TOP_HEADING, mapUrl } from './events.server.ts'
import { townById } from '#app/features/towns/towns.server.ts'
import { EVENT_LIMITS, EventFormSchema } from './forms.ts'
import { instantToParisWallClock } from '#app/platform/time-zone.ts'
import type { EventEditorData, EventFormValues } from './editor/types.ts'

/*
 * The event editor's server side, apart from the route: what the form starts from (a stored row
 * mapped to the strings the inputs hold) and the word said after a save.
 */

/** A coordinate as a French admin reads and types it: « 48,8566 ». */
const frenchDecimal = (value: number | null) => (value === null ? '' : String(value).replace('.', ','))
const wallClock = (value: Date | null) => (value ? instantToParisWallClock(value) : '')

const EMPTY: EventFormValues = {
	title: '',
	status: 'scheduled',
	previousStartsAt: '',
	doorsAt: '',
	startsAt: '',
	endsAt: '',
	venueName: '',
	address: '',
	postalCode: '',
	city: '',
	country: 'FR',
	latitude: '',
	longitude: '',
	ticketUrl: '',
	priceText: '',
	description: '',
	coverId: '',
}

/** A stored event as the form's inputs hold it; a new event's defaults when there is none. */
export function eventFormValues(row: EventRow | null): EventFormValues {
	if (!row) return EMPTY
	return {
		title: row.title,
		status: row.status,
		previousStartsAt: wallClock(row.previousStartsAt),
		doorsAt: wallClock(row.doorsAt),
		startsAt: wallClock(row.startsAt),
		endsAt: wallClock(row.endsAt),
		venueName: row.venueName,
		address: row.address ?? '',
		postalCode: row.postalCode ?? '',
		city: row.city,
		country: row.country,
		latitude: frenchDecimal(row.latitude),
		longitude: frenchDecimal(row.longitude),
		ticketUrl: row.ticketUrl ?? '',
		priceText: row.priceText ?? '',
		description: row.description,
		coverId: row.coverId ?? '',
	}
}

/** Everything the editor shows, for a stored event or (row null) a new one. */
export async function eventEditorData(db: Db, row: EventRow | null): Promise<EventEditorData> {
	return {
		formKey: crypto.randomUUID(),
		event: row
			? {
					id: row.id,
					title: row.title,
					status: row.status,
					published: row.published,
					publishedAt: row.publishedAt?.toISOString() ?? null,
					updatedAt: row.updatedAt.toISOString(),
				}
			: null,
		values: eventFormValues(row),
		cover: row?.coverId ? await mediaStatus(db, row.coverId, { kind: 'cover' }) : null,
		descriptionHtml: row?.description.trim() ? renderMarkdown(row.description, { topHeading: DESCRIPTION_TOP_HEADING }) : '',
		constraint: getZodConstraint(EventFormSchema),
		limits: { description: EVENT_LIMITS.description },
		defaultDurationMs: DEFAULT_DURATION_MS,
		place: row
			? {
					source: row.coordinatesSource,
					townLabel: row.townId !== null ? (townById(row.townId)?.label ?? null) : null,
					mapUrl: row.latitude !== null && row.longitude !== null ? mapUrl(row) : null,
				}
			: null,
	}
}

/** The live preview of a description: sanitised HTML, never stored. */
export function previewDescription(source: string): string {
	const text = source.replace(/\r\n?/g, '\n').slice(0, EVENT_LIMITS.description)
	return text.trim() ? renderMarkdown(text, { topHeading: DESCRIPTION_TOP_HEADING }) : ''
}

/**
 * The toast after a save: what was done (created, saved, published, unpublished, an announcement
 * prepared or not), as information
 * rather than success when the show's (new) date is already past: an archive is allowed, but said.
 */
export function savedFlash(options: {
	created: boolean
	publish: boolean | undefined
	inPast: boolean
	/** What the first publication did about its announcement (the setting « Préparer une annonce… »). */
	preparation?: 'prepared' | 'failed' | 'none'
}): Omit<Flash, 'id'> {
	const { created, publish, inPast, preparation } = options
	// Keys written out whole, so that the i18n check sees each one.
	if (publish === false) return { type: 'success', key: 'admin.events.flash.unpublished' }
	if (publish && preparation === 'prepared') return { type: 'success', key: 'admin.events.flash.publishedPrepared' }
	if (publish && preparation === 'failed') return { type: 'error', key: 'admin.events.flash.publishedNotPrepared' }
	if (publish)
		return inPast ? { type: 'info', key: 'admin.events.flash.publishedInPast' } : { type: 'success', key: 'admin.events.flash.published' }
	if (created)
		return inPast ? { type: 'info', key: 'admin.events.flash.createdInPast' } : { type: 'success', key: 'admin.events.flash.created' }
	return inPast ? { type: 'info', key: 'admin.events.flash.savedInPast' } : { type: 'success', key: 'admin.events.flash.saved' }
}
