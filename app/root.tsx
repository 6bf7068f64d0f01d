import { useRouteLinks } from '#app/components/route-link.tsx'
import { RouteStrings, useTranslation } from '#app/i18n/react.tsx'
import { routeStrings } from '#app/i18n/route-strings.ts'
import {
	data,
	isRouteErrorResponse,
	Links,
	Meta,
	Outlet,
	Scripts,
	ScrollRestoration,
	useNavigation,
	useRouteError,
	useRouteLoaderData,
} from 'react-router'
import type { Route } from './+types/root'
import { useNonce } from '#app/components/nonce.tsx'
import { Stylesheet } from '#app/components/stylesheet.tsx'
import { faviconDataUrl, faviconHref } from '#app/features/site/favicon.server.ts'
import { ErrorPage } from '#app/components/error-page.tsx'
import { Splash } from '#app/components/splash.tsx'
import { Toast, type ToastMessage } from '#app/components/ui/toast.tsx'
import { usePageHydrates } from '#app/hydration.ts'
import { getSessionProfile, sessionMiddleware, sessionUserContext } from '#app/features/accounts/session.server.ts'
import { getBand } from '#app/features/site/band.server.ts'
import { readFlash, type Flash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { SessionProvider, useSession } from '#app/session/session-provider.tsx'
import { formGuardMiddleware } from '#app/platform/form-guard.server.ts'
import { originCheckMiddleware } from '#app/platform/origin-check.server.ts'
import { privateCacheMiddleware } from '#app/platform/private-cache.server.ts'
import { trailingSlashMiddleware } from '#app/platform/trailing-slash.server.ts'
import stylesheet from './styles/public.css?url'
import displayFont from '@font-subsets/anton-capitals.woff2?url'

/**
 * Every request's rules, in two steps of React Router's middleware chain, since each step has a cost
 * of its own (as five steps, four of them cost 2.8 % of a signed-in page's CPU: `git show a289a7f:bench/RESULTS-dashboard.md`,
 * « Reading of the run of 2026-11-29, 00:47–00:51 UTC (added by hand) »).
 * First, a personal answer is marked for no shared cache on its way out: this step wraps all the rest.
 * Then, in order: a cross-site write is refused, a body that is not a form is refused, a path ending
 * in a slash is redirected, and the session is read. Each rule lives in its own module.
 */
export const middleware: Route.MiddlewareFunction[] = [
	privateCacheMiddleware,
	async (args) => {
		originCheckMiddleware(args)
		await formGuardMiddleware(args)
		trailingSlashMiddleware(args)
		await sessionMiddleware(args)
	},
]

/** The strings every page needs in the browser; each route adds its own (i18n/route-strings.ts). */
export const handle = routeStrings('common', 'errors')

export async function loader({ request, context }: Route.LoaderArgs) {
	const band = getBand()
	const user = context.get(sessionUserContext)
	// The profile comes with the session read (no second query of the same row).
	const profile = user ? await getSessionProfile(request) : null
	const { flash, clear } = await readFlash(request)
	return data(
		{ band, favicon: user ? faviconHref(band) : faviconDataUrl(band), user, profile, flash: flashMessage(flash) },
		clear ? { headers: { 'Set-Cookie': clear } } : undefined,
	)
}

/**
 * A flash message, in words. Translated here, on the server, which has every string: the page it
 * lands on need not load the strings of the screen that sent it.
 */
function flashMessage(flash: Flash | null): ToastMessage | null {
	if (!flash) return null
	const t = getT()
	return {
		id: flash.id,
		type: flash.type,
		title: t(`${flash.key}.title`, flash.values),
		description: t(`${flash.key}.body`, { ...flash.values, defaultValue: '' }) || undefined,
	}
}

export function Layout({ children }: { children: React.ReactNode }) {
	const nonce = useNonce()
	const rootData = useRouteLoaderData<typeof loader>('root')
	const error = useRouteError()
	const band = rootData?.band
	const style = band ? ({ '--accent': band.accent, '--on-accent': band.onAccent } as React.CSSProperties) : undefined
	// React Router's scripts only where a route asks for them (app/hydration.ts): the public pages
	// are HTML and CSS, with their own small islands where something is interactive.
	const hydrate = usePageHydrates()
	// A plain click on a RouteLink navigates in the page, as a <Link> (components/route-link.tsx).
	const followRouteLink = useRouteLinks()
	return (
		<html lang="fr" dir="ltr" style={style}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				{/*
				 * What the first paint needs, first: the stylesheet (inline on some public pages:
				 * components/stylesheet.tsx), and the display face that sets the first thing seen (the
				 * band's name); the text is in the reader's system face (styles/site.css). The browser's
				 * strings are not preloaded: the page is already rendered, they only wait for hydration
				 * (i18n/route-strings.ts).
				 */}
				<Stylesheet href={stylesheet} signedIn={Boolean(rootData?.user)} />
				<link rel="preload" href={displayFont} as="font" type="font/woff2" crossOrigin="anonymous" />
				<meta name="color-scheme" content="dark light" />
				<link
					rel="icon"
					href={rootData?.favicon ?? '/favicon.svg'}
					type={rootData?.favicon.startsWith('data:image/png') ? 'image/png' : 'image/svg+xml'}
				/>
				{/*
				 * An error page names itself (components/error-page.tsx). The routes' own meta is left out
				 * there: after a refused POST their loader data is missing and their title would read
				 * « undefined », ahead of the error page's.
				 */}
				{error ? null : <Meta />}
				<Links />
			</head>
			{/* oxlint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- it only follows the links' own clicks (Enter included) */}
			<body onClick={followRouteLink}>
				{children}
				{hydrate ? (
					<>
						<ScrollRestoration nonce={nonce} />
						<Scripts nonce={nonce} />
					</>
				) : null}
			</body>
		</html>
	)
}

export default function App({ loaderData }: Route.ComponentProps) {
	return (
		<SessionProvider user={loaderData.user} profile={loaderData.profile}>
			<SessionGate />
			{/* A flash message from the last redirect, shown once. */}
			<Toast message={loaderData.flash} />
		</SessionProvider>
	)
}

/** The pulsing-logo splash while the session is UNKNOWN, or while a slow screen loads. */
function SessionGate() {
	const session = useSession()
	const navigation = useNavigation()
	if (session.status === 'UNKNOWN') return <Splash />
	return (
		<>
			<RouteStrings>
				<Outlet />
			</RouteStrings>
			{navigation.state === 'loading' && !navigation.formMethod ? <Splash delayed overlay /> : null}
		</>
	)
}

export function HydrateFallback() {
	return <Splash />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	const { t } = useTranslation()
	if (isRouteErrorResponse(error)) {
		if (error.status === 403 && (error.data as { reason?: unknown } | null)?.reason === 'cross-site')
			return <ErrorPage code={403} title={t('errors.crossSite.title')} body={t('errors.crossSite.body')} />
		if (error.status === 403) return <ErrorPage code={403} title={t('errors.forbidden.title')} body={t('errors.forbidden.body')} />
		if (error.status === 404 || error.status === 405)
			return <ErrorPage code={404} title={t('errors.notFound.title')} body={t('errors.notFound.body')} />
		if (error.status === 429) return <ErrorPage code={429} title={t('errors.tooMany.title')} body={t('errors.tooMany.body')} />
		if (error.status >= 400 && error.status < 500)
			return <ErrorPage code={error.status} title={t('errors.badRequest.title')} body={t('errors.badRequest.body')} />
	}
	const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined
	return <ErrorPage code={500} title={t('errors.server.title')} body={t('errors.server.body')} detail={detail} />
}
