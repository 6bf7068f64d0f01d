import { clsx } from 'clsx'
import type { ComponentProps } from 'react'
import { controlClasses } from './input.tsx'

/** A native select (the best one on phones), drawn like the other controls, with our own chevron. */
export function Select({ className, children, ...props }: ComponentProps<'select'>) {
	return (
		<div className={clsx('relative', className)}>
			<select className={clsx(controlClasses, 'cursor-pointer appearance-none pr-10')} {...props}>
				{children}
			</select>
			<svg
				aria-hidden="true"
				viewBox="0 0 16 16"
				className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted"
			>
				<path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
			</svg>
		</div>
	)
}
