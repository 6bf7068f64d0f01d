import { clsx } from 'clsx'
import { useEffect, useId, useRef, type ReactNode } from 'react'

/**
 * A modal dialog on the native <dialog>: the browser traps focus, closes on Escape, makes the rest
 * of the page inert and gives focus back when it closes. Controlled: `open` shows it, and every
 * way of closing it (Escape, a click on the backdrop, a <form method="dialog"> button) calls
 * `onClose`.
 */
export function Dialog(props: {
	open: boolean
	onClose: () => void
	title: ReactNode
	description?: ReactNode
	children?: ReactNode
	/** The buttons, at the bottom right (stacked on a phone). */
	actions?: ReactNode
	size?: 'sm' | 'md' | 'lg'
	/** Close on a click outside the panel (default true; turn off for a form that must not lose input). */
	dismissOnBackdrop?: boolean
	className?: string
}) {
	const ref = useRef<HTMLDialogElement>(null)
	const titleId = useId()
	const descriptionId = useId()

	useEffect(() => {
		const dialog = ref.current
		if (!dialog) return
		if (props.open && !dialog.open) dialog.showModal()
		else if (!props.open && dialog.open) dialog.close()
	}, [props.open])

	return (
		// A click on the backdrop closes, for the mouse only: the keyboard has Escape (native to <dialog>) and the buttons.
		// oxlint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
		<dialog
			ref={ref}
			aria-labelledby={titleId}
			aria-describedby={props.description ? descriptionId : undefined}
			onClose={props.onClose}
			onClick={(event) => {
				// A click on the <dialog> itself (not its content) is a click on the backdrop.
				if (event.target === ref.current && props.dismissOnBackdrop !== false) ref.current.close()
			}}
			className={clsx(
				'm-auto max-h-[min(90dvh,52rem)] w-[calc(100%-2rem)] overflow-visible rounded-card border border-line bg-surface p-0 text-fg shadow-pop',
				'backdrop:bg-black/60 backdrop:backdrop-blur-[2px]',
				'open:animate-dialog-in',
				{ sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' }[props.size ?? 'md'],
				props.className,
			)}
		>
			<div className="flex max-h-[inherit] flex-col">
				<div className="overflow-y-auto p-5 sm:p-6">
					<h2 id={titleId} className="text-lg font-semibold tracking-tight">
						{props.title}
					</h2>
					{props.description ? (
						<p id={descriptionId} className="mt-1.5 text-sm text-muted">
							{props.description}
						</p>
					) : null}
					{props.children ? <div className="mt-5">{props.children}</div> : null}
				</div>
				{props.actions ? (
					<div className="flex flex-col-reverse gap-2 border-t border-line px-5 py-4 sm:flex-row sm:justify-end sm:px-6">
						{props.actions}
					</div>
				) : null}
			</div>
		</dialog>
	)
}
