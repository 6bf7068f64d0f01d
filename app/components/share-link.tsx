import { clsx } from 'clsx'
import { Share2 } from '#app/components/icons.tsx'
import { useState, type MouseEvent } from 'react'
import { buttonClasses, type ButtonVariant } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/**
 * « Partager »: the system's share sheet where the browser has one (phones), otherwise the address
 * copied to the clipboard with a spoken confirmation. Without JavaScript it is a plain link to the
 * page, to copy or long-press.
 */
export function ShareLink(props: { url: string; title: string; text?: string; variant?: ButtonVariant; className?: string }) {
	const { t } = useTranslation()
	const [message, setMessage] = useState('')

	async function copy() {
		try {
			await navigator.clipboard.writeText(props.url)
			setMessage(t('events.share.copied'))
		} catch {
			setMessage(t('events.share.failed'))
		}
	}

	async function onClick(event: MouseEvent<HTMLAnchorElement>) {
		// A click meant to open the link elsewhere (new tab, window) keeps its usual meaning.
		if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return
		const data: ShareData = { title: props.title, text: props.text, url: props.url }
		const canShare = typeof navigator.share === 'function' && (typeof navigator.canShare !== 'function' || navigator.canShare(data))
		if (!canShare && !navigator.clipboard?.writeText) return
		event.preventDefault()
		setMessage('')
		if (canShare) {
			try {
				await navigator.share(data)
				return
			} catch (error) {
				// Closed by the visitor: nothing to say.
				if ((error as Error)?.name === 'AbortError') return
			}
		}
		await copy()
	}

	return (
		<span className={clsx('inline-flex flex-col gap-2', props.className)}>
			<a href={props.url} onClick={onClick} className={buttonClasses(props.variant ?? 'secondary', 'lg')}>
				<Share2 aria-hidden="true" />
				{t('events.share.label')}
			</a>
			<span role="status" className={message ? 'text-sm text-muted' : 'sr-only'}>
				{message}
			</span>
		</span>
	)
}
