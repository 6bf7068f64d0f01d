import { Maximize, X } from '#app/components/icons.tsx'
import { useEffect, useState } from 'react'
import { data, Link } from 'react-router'
import type { Route } from './+types/stage'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { SetlistSheet } from '#app/features/setlist/setlist-sheet.tsx'
import { getSetlist } from '#app/features/setlist/setlists.server.ts'
import { keepStageViewOffline, useOffline } from '#app/features/setlist/stage-offline.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { formatDate, formatTime } from '#app/platform/time-zone.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import dashboardStylesheet from '#app/styles/dashboard.css?url'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { hydrated } from '#app/hydration.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts), and React there (app/hydration.ts). */
export const handle = hydrated(routeStrings('setlist'))

/*
 * The setlist for a phone or a tablet on stage: very large type on black, full screen on request,
 * and the screen kept awake while it shows (where the browser allows it). Once opened, it opens
 * again without a network: a service worker keeps the last copy loaded, which says when that
 * version was saved (docs/decisions/0021-stage-view-offline.md).
 */

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title, { name: 'theme-color', content: '#000000' })
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const setlist = await getSetlist(await getDb(), params.setlistId)
	if (!setlist) throw data(null, { status: 404 })
	return data(
		{ title: pageTitle(getT()('setlist.stage.metaTitle', { name: setlist.name })), setlist },
		// What the stage views' worker keeps is only ever a page marked so (and answered 200).
		{ headers: { 'X-Stage-View': '1' } },
	)
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
	return loaderHeaders
}

export default function StageSetlist({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { setlist } = loaderData
	const [canFullscreen, setCanFullscreen] = useState(false)
	const offline = useOffline()
	// Kept for the stage again whenever another version is shown.
	useEffect(() => {
		void keepStageViewOffline(setlist.name)
	}, [setlist.id, setlist.version, setlist.name])
	useEffect(() => {
		// Whether the browser offers full screen is known only after hydration: set once, from the effect.
		// oxlint-disable-next-line react/set-state-in-effect
		setCanFullscreen(typeof document.documentElement.requestFullscreen === 'function')
		let lock: { release(): Promise<void> } | null = null
		const wakeLock = (navigator as Navigator & { wakeLock?: { request(type: 'screen'): Promise<{ release(): Promise<void> }> } }).wakeLock
		const keepAwake = () => {
			if (document.visibilityState === 'visible')
				wakeLock?.request('screen').then(
					(l) => (lock = l),
					() => {},
				)
		}
		keepAwake()
		document.addEventListener('visibilitychange', keepAwake)
		return () => {
			document.removeEventListener('visibilitychange', keepAwake)
			void lock?.release().catch(() => {})
		}
	}, [])
	return (
		<main className="min-h-dvh bg-black px-[max(1rem,env(safe-area-inset-left))] pt-3 pb-16 text-white">
			{/* Outside the dashboard's frame: its sheet (every class of the site) comes from here. */}
			<link rel="stylesheet" href={dashboardStylesheet} precedence="default" />
			<div className="flex items-center justify-between gap-3">
				<h1 className="min-w-0 truncate font-display text-xl tracking-display text-white/70 uppercase">{setlist.name}</h1>
				<div className="flex shrink-0 gap-1">
					{canFullscreen ? (
						<button
							type="button"
							onClick={() => void document.documentElement.requestFullscreen().catch(() => {})}
							className="grid min-h-11 min-w-11 place-items-center rounded-control text-white/80 hover:bg-white/10"
							aria-label={t('setlist.stage.fullscreen')}
						>
							<Maximize aria-hidden="true" className="size-6" />
						</button>
					) : null}
					<Link
						to={`/dashboard/admin/setlist/${setlist.id}`}
						className="grid min-h-11 min-w-11 place-items-center rounded-control text-white/80 hover:bg-white/10"
						aria-label={t('setlist.stage.close')}
					>
						<X aria-hidden="true" className="size-6" />
					</Link>
				</div>
			</div>
			<p className="mt-1 text-base text-white/70">
				{t('setlist.stage.savedAt', { date: formatDate(setlist.updatedAt), time: formatTime(setlist.updatedAt) })}
			</p>
			{offline ? (
				<p role="status" className="mt-1 text-base font-semibold text-accent-fg">
					{t('setlist.stage.offlineCopy')}
				</p>
			) : null}
			<div className="mt-2">
				<SetlistSheet items={setlist.items} variant="stage" />
			</div>
		</main>
	)
}
