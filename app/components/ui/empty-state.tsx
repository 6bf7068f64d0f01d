import { clsx } from 'clsx'
import type { ReactNode } from 'react'

/** What a list says when it has nothing yet: a title, a sentence that helps, maybe an action. */
export function EmptyState(props: { title: ReactNode; body?: ReactNode; action?: ReactNode; icon?: ReactNode; className?: string }) {
	return (
		<div
			className={clsx(
				'flex flex-col items-start gap-3 rounded-card border border-dashed border-line-strong/70 px-5 py-8 sm:px-8',
				props.className,
			)}
		>
			{props.icon ? (
				<div className="grid size-10 place-items-center rounded-control bg-accent/12 text-accent-fg [&_svg]:size-5">{props.icon}</div>
			) : null}
			<div>
				<p className="font-semibold text-fg">{props.title}</p>
				{props.body ? <p className="mt-1 max-w-prose text-muted">{props.body}</p> : null}
			</div>
			{props.action ? <div className="mt-1">{props.action}</div> : null}
		</div>
	)
}
