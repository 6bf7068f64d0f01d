import type { StubDate } from '#app/components/event-card.tsx'
import type { DateLabel, EventSummary } from './types.ts'

/**
 * A show as a member's dashboard lists it (features/events/member-upcoming.tsx): what its row reads,
 * nothing more. The loader hands these to the page, and they go to the browser with it: the public
 * lists' summaries carry a dozen date labels and the price, of which the row shows six.
 */
export type MemberEvent = Pick<
	EventSummary,
	'id' | 'title' | 'status' | 'venueName' | 'city' | 'countryName' | 'ticketUrl' | 'isPast' | 'distanceKm'
> & {
	start: StubDate & Pick<DateLabel, 'time' | 'date'>
}

export function memberEvent(event: EventSummary): MemberEvent {
	const { start } = event
	return {
		id: event.id,
		title: event.title,
		status: event.status,
		venueName: event.venueName,
		city: event.city,
		countryName: event.countryName,
		ticketUrl: event.ticketUrl,
		isPast: event.isPast,
		...(event.distanceKm === undefined ? {} : { distanceKm: event.distanceKm }),
		start: {
			iso: start.iso,
			weekdayShort: start.weekdayShort,
			day: start.day,
			monthShort: start.monthShort,
			year: start.year,
			dateTime: start.dateTime,
			time: start.time,
			date: start.date,
		},
	}
}
