import type { getZodConstraint } from '@conform-to/zod/v4'
import type { EventFormInput } from '#app/features/events/forms.ts'
import type { MediaStatus } from '#app/features/media/rules.ts'
import type { EventStatus } from '#app/platform/db/event-status.ts'
import type { CoordinateSource } from '#app/platform/db/schema.ts'

/** The form's values as the inputs hold them: strings, dates in Paris wall-clock time. */
export type EventFormValues = Required<{ [K in keyof EventFormInput]: string }>

/** What the editor needs from the server to show an event (or a new one). */
export interface EventEditorData {
	/** A new key on every load: after a save (a redirect here), the form starts from what is stored. */
	formKey: string
	event: {
		id: string
		title: string
		status: EventStatus
		published: boolean
		publishedAt: string | null
		updatedAt: string
	} | null
	values: EventFormValues
	cover: MediaStatus | null
	descriptionHtml: string
	constraint: ReturnType<typeof getZodConstraint>
	limits: { description: number }
	defaultDurationMs: number
	/** Where the venue's coordinates come from, for the note under them, and the map link they give. */
	place: { source: CoordinateSource | null; townLabel: string | null; mapUrl: string | null } | null
}
