import { clsx } from 'clsx'
import type { HTMLAttributes } from 'react'

export type CardVariant = 'solid' | 'outline' | 'dashed'

const variants: Record<CardVariant, string> = {
	solid: 'border border-line bg-surface shadow-card',
	outline: 'border border-line',
	dashed: 'border border-dashed border-line-strong/70',
}

export function cardClasses(variant: CardVariant = 'solid', className?: string) {
	return clsx('rounded-card p-5 text-fg sm:p-6', variants[variant], className)
}

/** A framed block of content. `as` picks the element (a <section> wants an aria-labelledby). */
export function Card({
	as: Tag = 'div',
	variant,
	className,
	...props
}: HTMLAttributes<HTMLElement> & { as?: 'div' | 'section' | 'article' | 'li' | 'aside'; variant?: CardVariant }) {
	return <Tag className={cardClasses(variant, className)} {...props} />
}

/** A card's heading; pick the level that fits the page's outline. */
export function CardTitle({ as: Tag = 'h2', className, ...props }: HTMLAttributes<HTMLElement> & { as?: 'h2' | 'h3' | 'h4' | 'p' }) {
	return <Tag className={clsx('text-base font-semibold tracking-tight text-fg', className)} {...props} />
}
