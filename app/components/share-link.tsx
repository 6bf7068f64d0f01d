import { clsx } from 'clsx'
import { Share2 } from '#app/components/icons.tsx'
import { useNonce } from '#app/components/nonce.tsx'
import { buttonClasses, type ButtonVariant } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
// The island that makes the link share (app/islands/share.ts), built by Vite as a file of its own.
import shareIsland from '#app/islands/share.ts?worker&url'

/**
 * « Partager »: the system's share sheet where the browser has one (phones), otherwise the address
 * copied to the clipboard with a spoken confirmation. Without JavaScript it is a plain link to the
 * page, to copy or long-press. The page around it does not hydrate (app/hydration.ts): a small
 * script of its own does this (app/islands/share.ts), with the words the server wrote here.
 */
export function ShareLink(props: { url: string; title: string; text?: string; variant?: ButtonVariant; className?: string }) {
	const { t } = useTranslation()
	const nonce = useNonce()
	return (
		<span className={clsx('inline-flex flex-col gap-2', props.className)}>
			<a
				href={props.url}
				data-share-title={props.title}
				data-share-text={props.text}
				data-share-copied={t('events.share.copied')}
				data-share-failed={t('events.share.failed')}
				className={buttonClasses(props.variant ?? 'secondary', 'lg')}
			>
				<Share2 aria-hidden="true" />
				{t('events.share.label')}
			</a>
			{/* The island writes its answer here, and shows it with these classes. */}
			<span role="status" className="sr-only" data-share-status="text-sm text-muted" />
			<script type="module" src={shareIsland} nonce={nonce || undefined} />
		</span>
	)
}
