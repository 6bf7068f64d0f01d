import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import translation from '../../public/locales/fr-FR/translation.json'
import type { EventSummary } from '#app/features/events/types.ts'
import { I18nProvider } from '#app/i18n/react.tsx'
import type { Resources } from '#app/i18n/translate.ts'
import { EventCard } from './event-card.tsx'

const event: EventSummary = {
	id: 'abcdefghijkl',
	title: 'Nuit du printemps',
	status: 'scheduled',
	start: {
		iso: '2026-03-14T19:30:00.000Z',
		weekday: 'samedi',
		weekdayShort: 'sam.',
		day: '14',
		month: 'mars',
		monthShort: 'mars',
		year: '2026',
		date: 'samedi 14 mars 2026',
		dayMonthYear: '14 mars 2026',
		time: '20 h 30',
		dateTime: 'samedi 14 mars 2026 à 20 h 30',
		parisDay: '2026-03-14',
	},
	venueName: 'La Cigale',
	city: 'Paris',
	countryName: null,
	ticketUrl: null,
	priceText: null,
	isPast: false,
}

async function render(): Promise<string> {
	const routes = [
		{
			path: '*',
			Component: () => (
				<I18nProvider language="fr-FR" resources={translation as Resources}>
					<EventCard event={event} />
				</I18nProvider>
			),
		},
	]
	const handler = createStaticHandler(routes)
	const context = await handler.query(new Request('http://site/'))
	if (context instanceof Response) throw new Error('unexpected response')
	return renderToString(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />)
}

/**
 * The text of an HTML fragment as a screen reader gets it (aria-hidden parts left out) and as a
 * copy gets it (all of it). The fragment's spans are flat (no span inside a span).
 */
function texts(html: string): { read: string; copied: string } {
	const text = (value: string) =>
		value
			.replace(/<!--.*?-->/g, '')
			.replace(/<[^>]+>/g, '')
			.replace(/\s+/g, ' ')
			.trim()
	return { read: text(html.replace(/<span aria-hidden="true"[^>]*>.*?<\/span>/g, '')), copied: text(html) }
}

describe('EventCard', () => {
	test('reads its city and time without a stray comma or separator', async () => {
		const line = /<p class="eyebrow[^"]*">(.*?)<\/p>/.exec(await render())![1]!
		const { read, copied } = texts(line)
		expect(read).toBe('Paris 20 h 30')
		expect(copied).not.toMatch(/·\s*,/)
	})
})
