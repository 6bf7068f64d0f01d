import { clsx } from 'clsx'
import type { ReactNode } from 'react'

/** The top of a dashboard page: an optional label above, the title, a sentence, and actions on the right. */
export function PageHeader(props: {
	title: ReactNode
	eyebrow?: ReactNode
	description?: ReactNode
	actions?: ReactNode
	className?: string
}) {
	return (
		<div className={clsx('flex flex-wrap items-end justify-between gap-x-6 gap-y-4', props.className)}>
			<div className="min-w-0">
				{props.eyebrow ? <p className="eyebrow mb-1.5 text-accent-fg">{props.eyebrow}</p> : null}
				<h1 className="text-2xl font-semibold tracking-tight text-fg sm:text-3xl">{props.title}</h1>
				{props.description ? <p className="mt-1.5 max-w-prose text-muted">{props.description}</p> : null}
			</div>
			{props.actions ? <div className="flex flex-wrap gap-2">{props.actions}</div> : null}
		</div>
	)
}
