import { redirect } from 'react-router'
import type { Route } from './+types/banner'
import { Logo } from '#app/components/logo.tsx'
import { useNonce } from '#app/components/nonce.tsx'
import { getBand } from '#app/features/site/band.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/** How long the splash stays before the full-page redirect, in seconds. */
const SPLASH_SECONDS = 1

export function meta({ loaderData: data }: Route.MetaArgs) {
	if (!data) return []
	return [{ title: data.name }, { name: 'robots', content: 'noindex' }]
}

/** The link-in-bio address from configuration; none configured: the landing page. */
export function loader() {
	const band = getBand()
	const target = getEnv().LINK_IN_BIO_URL
	if (!target) throw redirect('/')
	return { target, name: band.name, logoUrl: band.logoUrl, label: getT()('banner.redirecting') }
}

export default function Banner({ loaderData }: Route.ComponentProps) {
	const nonce = useNonce()
	const { target, name, logoUrl, label } = loaderData
	return (
		<main className="poster-backdrop relative isolate grid min-h-dvh place-items-center overflow-hidden px-6 text-fg">
			<div className="flex flex-col items-center gap-7 text-center">
				<Logo name={name} logoUrl={logoUrl} decorative className="size-36 animate-pulse-logo motion-reduce:animate-none sm:size-48" />
				<h1 className="font-display text-display tracking-display uppercase [overflow-wrap:anywhere]">{name}</h1>
				<p role="status" className="max-w-xs text-muted">
					<a
						href={target}
						className="inline-flex min-h-11 items-center rounded-control underline decoration-accent decoration-2 underline-offset-[0.22em] hover:text-fg"
					>
						{label}
					</a>
				</p>
			</div>
			{/* Without JavaScript, the same redirect by meta refresh (inside <noscript>, so that a
			    browser running the script below never sees a timed refresh). */}
			<noscript>
				<meta httpEquiv="refresh" content={`${SPLASH_SECONDS};url=${target}`} />
			</noscript>
			<script
				nonce={nonce}
				// A full-page navigation (not a client-side route change) once the splash has shown.
				dangerouslySetInnerHTML={{
					__html: `setTimeout(function(){location.replace(${JSON.stringify(target).replace(/</g, '\\u003c')})},${SPLASH_SECONDS * 1000})`,
				}}
			/>
		</main>
	)
}
