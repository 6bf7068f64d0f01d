import { Printer } from '#app/components/icons.tsx'
import { data, Link } from 'react-router'
import type { Route } from './+types/code-print'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { printPage } from '#app/features/codes/print.server.ts'
import { CARDS_PER_SHEET } from '#app/features/codes/rules.ts'
import { getBand, pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.codes')

/*
 * A batch's print sheet: A4 pages of ten cards (85 × 54 mm, the size of a business card) with
 * dashed cut lines, each with its code and a QR code to /redeem?code=…. Printed from the browser
 * (or saved as PDF there); long batches come in pages of 500 cards.
 */

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const { database, env } = await getPlatform()
	const raw = new URL(request.url).searchParams.get('page') ?? '1'
	const page = /^\d{1,5}$/.test(raw) ? Math.max(1, Number(raw)) : 1
	const sheet = await printPage(database.db, params.batchId, page, env.SITE_URL)
	if (!sheet) throw data(null, { status: 404 })
	return { ...sheet, band: getBand().name, title: pageTitle(getT()('admin.codes.print.metaTitle', { campaign: sheet.batch.campaign })) }
}

function chunk<T>(items: T[], size: number): T[][] {
	const out: T[][] = []
	for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
	return out
}

export default function CodePrint({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { cards, batch, page, pages, band, redeemHost } = loaderData
	const link = (p: number) => `?page=${p}`
	return (
		<div className="min-h-dvh bg-paper text-black print:bg-white">
			<style>{`@page { size: A4; margin: 10mm 20mm; } @media print { .sheet { break-after: page; } .sheet:last-child { break-after: auto; } }`}</style>
			<header className="flex flex-wrap items-center justify-between gap-4 border-b border-black/15 bg-white px-6 py-4 print:hidden">
				<div>
					<h1 className="text-lg font-semibold">{t('admin.codes.print.title', { campaign: batch.campaign })}</h1>
					<p className="text-sm text-black/70">{t('admin.codes.print.hint', { page, pages, count: cards.length })}</p>
				</div>
				<div className="flex flex-wrap gap-2">
					{page > 1 ? (
						<Link to={link(page - 1)} className={buttonClasses('secondary', 'sm', 'text-black')}>
							{t('admin.codes.print.previous')}
						</Link>
					) : null}
					{page < pages ? (
						<Link to={link(page + 1)} className={buttonClasses('secondary', 'sm', 'text-black')}>
							{t('admin.codes.print.next')}
						</Link>
					) : null}
					<Button onClick={() => window.print()}>
						<Printer aria-hidden="true" />
						{t('admin.codes.print.print')}
					</Button>
				</div>
			</header>
			<main className="flex flex-col items-center gap-8 py-8 print:block print:p-0">
				{chunk(cards, CARDS_PER_SHEET).map((sheet, index) => (
					<section
						key={index}
						className="sheet grid w-[170mm] grid-cols-[85mm_85mm] grid-rows-[repeat(5,54mm)] bg-white shadow-lg print:shadow-none"
						aria-label={t('admin.codes.print.sheet', { n: index + 1 })}
					>
						{sheet.map((card) => (
							<article key={card.code} className="flex items-center gap-[4mm] border border-dashed border-black/40 p-[5mm]">
								<div
									className="size-[30mm] shrink-0"
									role="img"
									aria-label={t('admin.codes.print.qr', { code: card.code })}
									dangerouslySetInnerHTML={{ __html: card.qrSvg }}
								/>
								<div className="flex min-w-0 flex-col gap-[1.5mm]">
									<p className="font-display text-[13pt] leading-none tracking-display uppercase">{band}</p>
									<p className="text-[7.5pt] leading-tight text-black/75">{batch.campaign}</p>
									<p className="mt-[1mm] font-mono text-[11pt] font-bold tracking-wide">{card.code}</p>
									<p className="text-[6.5pt] leading-tight text-black/75">{t('admin.codes.print.instructions', { host: redeemHost })}</p>
								</div>
							</article>
						))}
					</section>
				))}
			</main>
		</div>
	)
}
