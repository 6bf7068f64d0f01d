import { clsx } from 'clsx'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'

export type ToastType = 'success' | 'error' | 'info'

/** What a toast says. Give each message its own `id` (a flash message's), so the same words twice show twice. */
export interface ToastMessage {
	id: string
	type: ToastType
	title: string
	description?: string
}

/** How long a success or an information stays (an error stays until closed). */
const VISIBLE_MS = 6000

const icons: Record<ToastType, string> = {
	success: 'M4.5 8.5l2.5 2.5 4.5-5.5',
	error: 'M8 4.75v4 M8 11.25v.01',
	info: 'M8 7.25v4 M8 4.75v.01',
}
const iconColours: Record<ToastType, string> = {
	success: 'text-success',
	error: 'text-danger',
	info: 'text-info',
}

/**
 * The place where a short confirmation or error appears (« Événement enregistré »), bottom right,
 * and is read out by screen readers through a polite live region (assertive for an error). Mount
 * it once per page and hand it the latest message; it shows it, then hides it after a few seconds
 * unless the pointer or focus is on it.
 */
export function Toast(props: { message: ToastMessage | null | undefined; className?: string }) {
	const { t } = useTranslation()
	const [shown, setShown] = useState<ToastMessage | null>(props.message ?? null)
	const [announced, setAnnounced] = useState<ToastMessage | null>(null)
	const [paused, setPaused] = useState(false)
	const lastId = useRef<string | null>(null)

	// A new message replaces the one on screen and is announced. The live region is filled after
	// mount, so that a message already in the server's HTML is read out too.
	useEffect(() => {
		const message = props.message ?? null
		if (!message || message.id === lastId.current) return
		lastId.current = message.id
		setShown(message)
		setAnnounced(null)
		const timer = setTimeout(() => setAnnounced(message), 100)
		return () => clearTimeout(timer)
	}, [props.message])

	useEffect(() => {
		if (!shown || shown.type === 'error' || paused) return
		const timer = setTimeout(() => setShown(null), VISIBLE_MS)
		return () => clearTimeout(timer)
	}, [shown, paused])

	return (
		<>
			<div className="sr-only" aria-live="polite" aria-atomic="true">
				{announced && announced.type !== 'error' ? `${announced.title} ${announced.description ?? ''}` : null}
			</div>
			<div className="sr-only" aria-live="assertive" aria-atomic="true">
				{announced?.type === 'error' ? `${announced.title} ${announced.description ?? ''}` : null}
			</div>
			{shown ? (
				// A landmark of its own, so that the message is not content outside every landmark. Hovering or
				// focusing it only pauses its dismissal: no action hangs on these listeners.
				// oxlint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
				<section
					aria-label={t('common.notification')}
					className={clsx(
						'fixed inset-x-3 bottom-3 z-[60] sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-96',
						'animate-toast-in',
						props.className,
					)}
					onPointerEnter={() => setPaused(true)}
					onPointerLeave={() => setPaused(false)}
					onFocus={() => setPaused(true)}
					onBlur={() => setPaused(false)}
				>
					<div className="flex items-start gap-3 rounded-card border border-line bg-surface py-3 pr-2 pl-4 text-fg shadow-pop">
						<svg aria-hidden="true" viewBox="0 0 16 16" className={clsx('mt-0.5 size-5 shrink-0', iconColours[shown.type])}>
							<circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
							<path
								d={icons[shown.type]}
								fill="none"
								stroke="currentColor"
								strokeWidth="1.75"
								strokeLinecap="round"
								strokeLinejoin="round"
							/>
						</svg>
						<div className="min-w-0 flex-1 py-px">
							<p className="text-sm font-semibold">{shown.title}</p>
							{shown.description ? <p className="mt-0.5 text-sm text-muted">{shown.description}</p> : null}
						</div>
						<button
							type="button"
							onClick={() => setShown(null)}
							className="-my-1 grid size-11 shrink-0 place-items-center rounded-control text-muted hover:bg-fg/8 hover:text-fg"
						>
							<span className="sr-only">{t('common.close')}</span>
							<svg aria-hidden="true" viewBox="0 0 16 16" className="size-4">
								<path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
							</svg>
						</button>
					</div>
				</section>
			) : null}
		</>
	)
}
