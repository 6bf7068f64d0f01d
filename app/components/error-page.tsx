import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/** Our own French error pages (403, 404, 500…): a code, a sentence, a way back. */
export function ErrorPage(props: { code: number; title: string; body: string; detail?: string }) {
	const { t } = useTranslation()
	return (
		<main id="contenu" className="grid min-h-dvh place-items-center bg-ink-950 px-6 py-16 text-ink-100">
			<title>{`${props.title} · ${props.code}`}</title>
			<div className="max-w-xl text-center">
				<p className="font-display text-[clamp(5rem,22vw,10rem)] leading-none text-accent" aria-hidden="true">
					{props.code}
				</p>
				<h1 className="mt-4 font-display text-4xl uppercase tracking-wide sm:text-5xl">{props.title}</h1>
				<p className="mt-4 text-lg text-ink-300">{props.body}</p>
				<div className="mt-8 flex flex-wrap justify-center gap-3">
					<Link
						to="/"
						className="inline-flex min-h-11 items-center rounded-full bg-accent px-6 font-semibold text-on-accent"
					>
						{t('errors.backHome')}
					</Link>
				</div>
				{props.detail ? (
					<pre className="mt-8 max-h-80 overflow-auto rounded bg-ink-900 p-4 text-left text-xs text-ink-300">
						{props.detail}
					</pre>
				) : null}
			</div>
		</main>
	)
}
