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
	return [
		{ title: data.name },
		{ name: 'robots', content: 'noindex' },
		// The redirect works without JavaScript.
		{ httpEquiv: 'refresh', content: `${SPLASH_SECONDS};url=${data.target}` },
	]
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
		<main className="grid min-h-dvh place-items-center bg-ink-950 px-6 text-ink-100">
			<div className="flex flex-col items-center gap-6 text-center">
				<Logo name={name} logoUrl={logoUrl} className="size-36 animate-pulse-logo sm:size-48" />
				<h1 className="font-display text-5xl uppercase tracking-wide">{name}</h1>
				<p role="status">
					<a href={target} className="underline decoration-accent decoration-2 underline-offset-4">
						{label}
					</a>
				</p>
			</div>
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
