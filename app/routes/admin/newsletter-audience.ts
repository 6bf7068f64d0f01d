import { data } from 'react-router'
import type { Route } from './+types/newsletter-audience'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { countAudience, readAudienceInput } from '#app/features/newsletter/audience.server.ts'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'

/**
 * The compose screen's live count of an announcement's audience (GET `?audienceEvent=…&radiusKm=…
 * &includeNoTown=on`): how many active subscribers it would reach now. The venue's place is read
 * from the event, never from the request.
 */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const form = new FormData()
	for (const [name, value] of new URL(request.url).searchParams) form.set(name, value)
	const { db } = await newsletterContext()
	const input = await readAudienceInput(db, form)
	const noStore = { 'Cache-Control': 'private, no-store' }
	if (input.kind === 'invalid') return data({ count: null, invalid: input.field }, { status: 400, headers: noStore })
	return data(
		{ count: await countAudience(db, input.kind === 'radius' ? { ...input.audience, countAtSave: 0 } : null), invalid: null },
		{ headers: noStore },
	)
}
