import * as editor from '#app/routes/admin/event-editor.tsx'
import { formPost, outcome, routeArgs } from './requests.ts'

/* The admin's event editor, posted to as its form does: a show in Lyon, changed field by field. */

const LIST = '/dashboard/admin/events'

/** The editor's fields for a scheduled show at Lyon's Transbordeur (placed from its town). */
export function lyonEventForm(overrides: Record<string, string> = {}): Record<string, string> {
	return {
		intent: 'save',
		title: 'Concert à Lyon',
		status: 'scheduled',
		startsAt: '2030-05-16T20:30',
		venueName: 'Le Transbordeur',
		city: 'Lyon',
		country: 'FR',
		latitude: '',
		longitude: '',
		...overrides,
	}
}

/** Posts the editor of `eventId` (`new` for a new one) as the member of `cookie`. */
export async function postEventEditor(cookie: string, eventId: string, fields: Record<string, string>) {
	return outcome(
		await editor.action(routeArgs(formPost(`${LIST}/${eventId}`, fields, { cookie }), `${LIST}/:eventId`, { eventId }) as never),
	)
}

/** The id of the event a save redirected to. */
export const savedEventId = (result: { headers: Headers }) => result.headers.get('location')!.split('/').pop()!
