import { Printer } from '#app/components/icons.tsx'
import { data, Link } from 'react-router'
import type { Route } from './+types/print'
import { Button } from '#app/components/ui/button.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { SetlistSheet } from '#app/features/setlist/setlist-sheet.tsx'
import { getSetlist } from '#app/features/setlist/setlists.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { formatDate } from '#app/platform/time-zone.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { hydrated } from '#app/hydration.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts), and React there (app/hydration.ts). */
export const handle = hydrated(routeStrings('setlist'))

/*
 * The setlist on an A4 sheet to tape to the floor: black on white, large type, one page where it
 * fits. Outside the dashboard's frame, so that only the sheet is printed.
 */

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const setlist = await getSetlist(await getDb(), params.setlistId)
	if (!setlist) throw data(null, { status: 404 })
	return { title: pageTitle(getT()('setlist.print.metaTitle', { name: setlist.name })), setlist }
}

export default function PrintSetlist({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { setlist } = loaderData
	return (
		<div className="min-h-dvh bg-neutral-200 py-6 text-black print:bg-white print:py-0">
			<style>{'@page { size: A4; margin: 12mm 14mm; } @media print { html, body { background: #fff !important; } }'}</style>
			<div className="mx-auto mb-4 flex max-w-[210mm] flex-wrap items-center justify-between gap-2 px-4 print:hidden">
				<Link
					to={`/dashboard/admin/setlist/${setlist.id}`}
					className="inline-flex min-h-9 items-center rounded-control border border-black/40 px-3 text-sm font-semibold text-black hover:bg-black/5"
				>
					{t('setlist.print.back')}
				</Link>
				<Button size="sm" onClick={() => window.print()}>
					<Printer aria-hidden="true" />
					{t('setlist.print.print')}
				</Button>
			</div>
			<main className="mx-auto box-border min-h-[297mm] w-full max-w-[210mm] bg-white px-[14mm] py-[12mm] shadow-lg print:min-h-0 print:max-w-none print:p-0 print:shadow-none">
				<header className="mb-[4mm] flex items-baseline justify-between gap-4 border-b-[2pt] border-black pb-[2mm]">
					<h1 className="font-display text-[20pt] leading-none tracking-display uppercase">{setlist.name}</h1>
					{setlist.event ? (
						<p className="text-right text-[10pt]">
							{formatDate(setlist.event.startsAt)} · {setlist.event.venueName}, {setlist.event.city}
						</p>
					) : null}
				</header>
				<SetlistSheet items={setlist.items} variant="print" />
			</main>
		</div>
	)
}
