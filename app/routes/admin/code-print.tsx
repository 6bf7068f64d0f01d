import { Printer } from '#app/components/icons.tsx'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/code-print'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { printPage } from '#app/features/codes/print.server.ts'
import { qrPath } from '#app/features/codes/qr-path.ts'
import { CARDS_PER_PAGE, CARDS_PER_SHEET } from '#app/features/codes/rules.ts'
import { getBand, pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import dashboardStylesheet from '#app/styles/dashboard.css?url'
import sheetStylesheet from '#app/styles/code-sheet.css?url'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { hydrated } from '#app/hydration.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts), and React there (app/hydration.ts). */
export const handle = hydrated(routeStrings('admin.codes'))

/*
 * A batch's print sheet: A4 pages of ten cards (85 × 54 mm, the size of a business card) with crop
 * marks, each with a QR code to /redeem?code=… and the code under it (styles/code-sheet.css).
 * Printed from the browser (or saved as PDF there). Outside the dashboard's frame, so that only the
 * sheets print. A big batch comes in parts of CARDS_PER_PAGE cards (20 sheets), one at a time.
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

const number = new Intl.NumberFormat('fr-FR')
const SHEETS_PER_PAGE = CARDS_PER_PAGE / CARDS_PER_SHEET

/** The cards and sheets a part holds, for its label (« feuilles 51 à 100, cartes 501 à 1 000 »). */
function partRange(page: number, total: number) {
	const first = (page - 1) * CARDS_PER_PAGE + 1
	const last = Math.min(total, page * CARDS_PER_PAGE)
	return {
		first: number.format(first),
		last: number.format(last),
		firstSheet: number.format((page - 1) * SHEETS_PER_PAGE + 1),
		lastSheet: number.format(Math.ceil(last / CARDS_PER_SHEET)),
	}
}

function chunk<T>(items: T[], size: number): T[][] {
	const out: T[][] = []
	for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
	return out
}

export default function CodePrint({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { cards, batch, total, page, pages, band, redeemHost } = loaderData
	const link = (p: number) => `?page=${p}`
	const firstSheet = (page - 1) * SHEETS_PER_PAGE
	return (
		<div className="dashboard min-h-dvh bg-canvas text-fg">
			<link rel="stylesheet" href={dashboardStylesheet} precedence="default" />
			<link rel="stylesheet" href={sheetStylesheet} precedence="default" />
			<header className="border-b border-line bg-surface px-4 py-4 sm:px-6 print:hidden">
				<div className="mx-auto flex max-w-5xl flex-col gap-3">
					<div className="flex flex-wrap items-start justify-between gap-3">
						<div className="min-w-0">
							<h1 className="text-lg font-semibold text-balance">{t('admin.codes.print.title', { campaign: batch.campaign })}</h1>
							<p className="text-sm text-muted">
								{t('admin.codes.print.summary', { count: total, n: number.format(total) })} {t('admin.codes.print.howTo')}
							</p>
						</div>
						<div className="flex flex-wrap gap-2">
							<Link to={`/dashboard/admin/codes/${batch.campaignId}`} className={buttonClasses('secondary', 'sm')}>
								{t('admin.codes.print.back')}
							</Link>
							<Button size="sm" onClick={() => window.print()} disabled={cards.length === 0}>
								<Printer aria-hidden="true" />
								{t('admin.codes.print.print')}
							</Button>
						</div>
					</div>
					{batch.revokedAt ? (
						<p role="status" className="text-sm font-semibold text-danger">
							{t('admin.codes.print.revoked')}
						</p>
					) : cards.length === 0 ? (
						<p role="status" className="text-sm font-semibold">
							{t('admin.codes.print.empty')}
						</p>
					) : null}
					{pages > 1 ? (
						<nav aria-label={t('admin.codes.print.partLabel')} className="flex flex-wrap items-end gap-2 text-sm">
							<p className="w-full font-semibold">
								{t('admin.codes.print.part', { page, pages, ...partRange(page, total) })}{' '}
								<span className="font-normal text-muted">{t('admin.codes.print.partsHint', { sheets: SHEETS_PER_PAGE })}</span>
							</p>
							{page > 1 ? (
								<Link to={link(page - 1)} className={buttonClasses('secondary', 'sm')}>
									{t('admin.codes.print.previous')}
								</Link>
							) : null}
							{page < pages ? (
								<Link to={link(page + 1)} className={buttonClasses('secondary', 'sm')}>
									{t('admin.codes.print.next')}
								</Link>
							) : null}
							<Form method="get" className="flex flex-wrap items-end gap-2">
								<label className="flex flex-col gap-1">
									<span className="font-semibold">{t('admin.codes.print.partLabel')}</span>
									<select
										name="page"
										defaultValue={page}
										key={page}
										className="min-h-9 rounded-control border border-line-strong bg-field px-2 text-fg"
									>
										{Array.from({ length: pages }, (_, index) => (
											<option key={index} value={index + 1}>
												{t('admin.codes.print.partOption', partRange(index + 1, total))}
											</option>
										))}
									</select>
								</label>
								<Button type="submit" variant="secondary" size="sm">
									{t('admin.codes.print.show')}
								</Button>
							</Form>
						</nav>
					) : null}
				</div>
			</header>
			{cards.length > 0 ? (
				<main className="code-sheets">
					{chunk(cards, CARDS_PER_SHEET).map((sheet, index) => (
						<section
							key={index}
							className="code-sheet"
							aria-label={t('admin.codes.print.sheet', { n: number.format(firstSheet + index + 1) })}
						>
							<CropMarks />
							<div className="code-sheet-grid">
								{sheet.map((card) => (
									<article key={card.code} className="code-card">
										<div className="code-card-qr">
											<svg
												viewBox={`0 0 ${card.qr.size} ${card.qr.size}`}
												role="img"
												aria-label={t('admin.codes.print.qr', { code: card.code })}
												shapeRendering="crispEdges"
											>
												<path d={qrPath(card.qr)} stroke="#000" strokeWidth="1" fill="none" />
											</svg>
											<p className="code-card-code" data-long={card.code.length > 14 ? '' : undefined}>
												{card.code}
											</p>
										</div>
										<div className="code-card-text">
											<p className="code-card-band">{band}</p>
											<p className="code-card-campaign">{batch.campaign}</p>
											<p className="code-card-instructions">{t('admin.codes.print.instructions', { host: redeemHost })}</p>
										</div>
									</article>
								))}
							</div>
						</section>
					))}
				</main>
			) : null}
		</div>
	)
}

/* Where the cards are cut, in millimetres on the A4 page: the grid starts at 20 × 13.5 mm (styles/code-sheet.css). */
const CUTS_X = [20, 105, 190]
const CUTS_Y = [13.5, 67.5, 121.5, 175.5, 229.5, 283.5]

/** Crop marks in the margins (black, 2 mm clear of the cards) and light dashed cut lines between the cards. */
function CropMarks() {
	const marks = [
		...CUTS_X.flatMap((x) => [`M${x} 4V11.5`, `M${x} 285.5V293`]),
		...CUTS_Y.flatMap((y) => [`M9 ${y}H18`, `M192 ${y}H201`]),
	].join('')
	const guides = [...CUTS_X.map((x) => `M${x} 13.5V283.5`), ...CUTS_Y.map((y) => `M20 ${y}H190`)].join('')
	return (
		<svg className="code-sheet-marks" viewBox="0 0 210 297" aria-hidden="true">
			<path d={guides} stroke="#b5b5b5" strokeWidth="0.15" strokeDasharray="1 1" fill="none" />
			<path d={marks} stroke="#000" strokeWidth="0.2" fill="none" />
		</svg>
	)
}
