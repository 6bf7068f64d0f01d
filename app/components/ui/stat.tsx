import { clsx } from 'clsx'
import type { ReactNode } from 'react'

/** One figure of a statistics row. Use inside a <dl> (the grid of figures). */
export function Stat(props: { label: ReactNode; value: number | string; detail?: ReactNode; className?: string }) {
	const value = typeof props.value === 'number' ? props.value.toLocaleString('fr-FR') : props.value
	return (
		<div className={clsx('flex flex-col rounded-card border border-line bg-surface p-4 shadow-card sm:p-5', props.className)}>
			<dt className="text-sm text-muted">{props.label}</dt>
			<dd className="order-first mb-1 text-3xl font-semibold tracking-tight text-fg tabular-nums sm:text-4xl">{value}</dd>
			{props.detail ? <dd className="mt-1 text-xs text-muted">{props.detail}</dd> : null}
		</div>
	)
}
