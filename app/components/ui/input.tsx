import { clsx } from 'clsx'
import type { ComponentProps } from 'react'

/** The look shared by every text control: input, textarea, select. */
export const controlClasses = clsx(
	'min-h-11 w-full rounded-control border border-line-strong bg-field px-3 py-2 text-base text-fg',
	'placeholder:text-muted transition-colors duration-150 hover:border-fg/70',
	'focus-visible:border-focus focus-visible:outline-offset-1',
	'aria-invalid:border-danger aria-invalid:hover:border-danger',
	'disabled:cursor-not-allowed disabled:opacity-60',
)

/** A single-line text control. Put it inside <Field> for its label, hint and error. */
export function Input({ className, ...props }: ComponentProps<'input'>) {
	return <input className={clsx(controlClasses, '[&[readonly]]:bg-raised', className)} {...props} />
}
