import { clsx } from 'clsx'
import type { ComponentProps } from 'react'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'
export type ButtonSize = 'sm' | 'md' | 'lg'

const variants: Record<ButtonVariant, string> = {
	primary: 'bg-accent text-on-accent hover:brightness-110 active:brightness-95',
	secondary: 'border border-line-strong bg-transparent text-fg hover:border-fg hover:bg-fg/5',
	ghost: 'bg-transparent text-fg hover:bg-fg/8',
	danger: 'bg-danger-solid text-on-danger-solid hover:brightness-110 active:brightness-95',
}
const sizes: Record<ButtonSize, string> = {
	// Dense for the dashboard's tables on a mouse; still 44 px under a finger.
	sm: 'min-h-9 px-3 text-sm whitespace-nowrap pointer-coarse:min-h-11',
	md: 'min-h-11 px-5 text-[0.9375rem] whitespace-nowrap',
	// The poster's call to action: may wrap on a 320 px phone rather than overflow.
	lg: 'min-h-13 px-6 py-2 text-base leading-tight tracking-wide uppercase sm:px-7',
}

/** The classes of a button, for a link that looks like one (`<Link className={buttonClasses()}>`). */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string) {
	return clsx(
		// The shared frame is the `btn` class (styles/site.css).
		'btn shrink-0 [&_svg]:size-[1.15em] [&_svg]:shrink-0',
		variants[variant],
		sizes[size],
		className,
	)
}

/** A button; `type="button"` unless told otherwise, so it never submits a form by surprise. */
export function Button({
	variant,
	size,
	className,
	type = 'button',
	...props
}: ComponentProps<'button'> & { variant?: ButtonVariant; size?: ButtonSize }) {
	return <button type={type} className={buttonClasses(variant, size, className)} {...props} />
}
