import { clsx } from 'clsx'
import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react'

/**
 * A data table that scans well: quiet header, hairline rows, a hover highlight, tabular figures.
 * On a narrow screen it scrolls sideways inside its frame; it then becomes focusable (and named by
 * `label`, as a group rather than a landmark: the page's section already is one) so a keyboard can scroll it too.
 */
export function Table({ label, caption, className, children, ...props }: ComponentProps<'table'> & { label: string; caption?: ReactNode }) {
	const frame = useRef<HTMLDivElement>(null)
	const [scrollable, setScrollable] = useState(false)
	useEffect(() => {
		const element = frame.current
		if (!element || typeof ResizeObserver === 'undefined') return
		const measure = () => setScrollable(element.scrollWidth > element.clientWidth + 1)
		measure()
		const observer = new ResizeObserver(measure)
		observer.observe(element)
		return () => observer.disconnect()
	}, [])
	return (
		<div
			ref={frame}
			role={scrollable ? 'group' : undefined}
			aria-label={scrollable ? label : undefined}
			tabIndex={scrollable ? 0 : undefined}
			className={clsx('relative overflow-x-auto rounded-card border border-line bg-surface shadow-card', className)}
		>
			<table className="w-full border-collapse text-left text-sm text-fg" {...props}>
				<caption className="sr-only">{caption ?? label}</caption>
				{children}
			</table>
		</div>
	)
}

export function TableHead({ className, ...props }: ComponentProps<'thead'>) {
	return <thead className={clsx('bg-raised/70 text-xs text-muted', className)} {...props} />
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
	return <tbody className={clsx('divide-y divide-line', className)} {...props} />
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
	return <tr className={clsx('transition-colors duration-100 hover:bg-raised/50', className)} {...props} />
}

/** A column header (scope="col" unless told otherwise). `numeric` right-aligns it with its cells. */
export function TableHeader({ className, numeric, scope = 'col', ...props }: ComponentProps<'th'> & { numeric?: boolean }) {
	return (
		<th
			scope={scope}
			className={clsx(
				'border-b border-line px-3 py-2.5 font-semibold tracking-wide whitespace-nowrap uppercase sm:px-4',
				numeric && 'text-right',
				className,
			)}
			{...props}
		/>
	)
}

/** A cell. It keeps to one line (the table scrolls sideways on a phone); `wrap` lets long text wrap. */
export function TableCell({ className, numeric, wrap, ...props }: ComponentProps<'td'> & { numeric?: boolean; wrap?: boolean }) {
	return (
		<td
			className={clsx('px-3 py-2.5 align-middle sm:px-4', !wrap && 'whitespace-nowrap', numeric && 'text-right tabular-nums', className)}
			{...props}
		/>
	)
}
