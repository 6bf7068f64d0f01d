import type { ComponentProps } from 'react'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'
export type ButtonSize = 'sm' | 'md' | 'lg'

/*
 * The shared frame is the `btn` class, each variant's and size's resting look `btn-<variant>` and
 * `btn-<size>` (styles/site.css): a dashboard page holds dozens of buttons, and their 150–200
 * characters of utilities each were a tenth of its HTML. What stays here won over a class given
 * beside it before and must still: the hover and active states, `shrink-0` and the icons' size.
 */
const variants: Record<ButtonVariant, string> = {
	primary: 'btn-primary hover:brightness-110 active:brightness-95',
	secondary: 'btn-secondary hover:border-fg hover:bg-fg/5',
	ghost: 'btn-ghost hover:bg-fg/8',
	danger: 'btn-danger hover:brightness-110 active:brightness-95',
}
const FRAME = 'btn shrink-0 [&_svg]:size-[1.15em] [&_svg]:shrink-0'

/** The classes of a button, for a link that looks like one (`<Link className={buttonClasses()}>`). */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string) {
	const classes = `${FRAME} ${variants[variant]} btn-${size}`
	return className ? `${classes} ${className}` : classes
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
