import { useTranslation } from '#app/i18n/react.tsx'
import { Link, useRouteLoaderData } from 'react-router'
import { Logo } from './logo.tsx'
import { SkipLink } from './skip-link.tsx'
import { buttonClasses } from './ui/button.tsx'
import { useErrorReference } from '#app/components/request-id.tsx'

type RootData = { band: { name: string; logoUrl: string | null } }

/** Our own French error pages (403, 404, 500…): the code as a poster, a sentence, a way back. */
export function ErrorPage(props: { code: number; title: string; body: string; detail?: string }) {
	const { t } = useTranslation()
	// The band's mark when the root's data is there (not when the root loader itself failed).
	const band = (useRouteLoaderData('root') as RootData | undefined)?.band
	const reference = useErrorReference()
	return (
		<div className="poster-backdrop flex min-h-dvh flex-col text-fg">
			<SkipLink />
			{band ? (
				<header className="mx-auto w-full max-w-page px-gutter py-4 sm:py-5">
					<Link to="/" className="inline-flex min-h-11 items-center gap-3 rounded-control">
						<Logo name={band.name} logoUrl={band.logoUrl} decorative className="size-10 sm:size-11" />
						<span className="font-display text-xl tracking-display uppercase sm:text-2xl">{band.name}</span>
					</Link>
				</header>
			) : null}
			<main id="contenu" className="mx-auto flex w-full max-w-page flex-1 flex-col justify-center px-gutter pt-8 pb-20">
				{/* « Page introuvable · 404 · Le Groupe »: the band's name as on every other page, when known. */}
				<title>{band ? `${props.title} · ${props.code} · ${band.name}` : `${props.title} · ${props.code}`}</title>
				<p className="eyebrow text-accent-fg">{t('errors.codeLabel', { code: props.code })}</p>
				<p aria-hidden="true" className="mt-5 font-display text-[clamp(7rem,34vw,18rem)] leading-[0.78] tracking-[-0.01em] text-accent-fg">
					{props.code}
				</p>
				<h1 className="mt-6 max-w-3xl font-display text-headline tracking-display uppercase sm:mt-8">{props.title}</h1>
				<p className="mt-4 max-w-xl text-lg text-muted">{props.body}</p>
				<div className="mt-8 flex flex-wrap gap-3">
					<Link to="/" className={buttonClasses('primary', 'lg')}>
						{t('errors.backHome')}
					</Link>
				</div>
				{props.code >= 500 && reference.id ? (
					<p className="mt-8 text-sm text-muted" {...reference.attribute}>
						{t('errors.reference')}{' '}
						<code className="rounded-control bg-surface px-1.5 py-0.5 font-mono text-fg select-all">{reference.id}</code>
					</p>
				) : null}
				{props.detail ? (
					<pre className="mt-10 max-h-80 overflow-auto rounded-card border border-line bg-surface p-4 text-left text-xs text-muted">
						{props.detail}
					</pre>
				) : null}
			</main>
		</div>
	)
}
