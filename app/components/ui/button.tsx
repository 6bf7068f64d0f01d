import { clsx } from 'clsx'
import type { ComponentProps } from 'react'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'
export type ButtonSize = 'md' | 'lg' | 'sm'

const variants: Record<ButtonVariant, string> = {
	primary: 'bg-accent text-on-accent hover:brightness-110',
	secondary: 'border border-current/30 bg-transparent hover:bg-current/10',
	ghost: 'bg-transparent hover:bg-current/10',
	danger: 'bg-red-700 text-white hover:bg-red-800',
}
const sizes: Record<ButtonSize, string> = {
	sm: 'min-h-9 px-3 text-sm',
	md: 'min-h-11 px-5 text-base',
	lg: 'min-h-13 px-7 text-lg',
}

export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string) {
	return clsx(
		'inline-flex items-center justify-center gap-2 rounded-full font-semibold transition',
		'disabled:cursor-not-allowed disabled:opacity-60',
		variants[variant],
		sizes[size],
		className,
	)
}

export function Button({
	variant,
	size,
	className,
	type = 'button',
	...props
}: ComponentProps<'button'> & { variant?: ButtonVariant; size?: ButtonSize }) {
	return <button type={type} className={buttonClasses(variant, size, className)} {...props} />
}
