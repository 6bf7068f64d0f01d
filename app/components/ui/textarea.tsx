import { clsx } from 'clsx'
import type { ComponentProps } from 'react'
import { controlClasses } from './input.tsx'

/** A multi-line text control that grows with what is typed (where the browser can). */
export function Textarea({ className, rows = 5, ...props }: ComponentProps<'textarea'>) {
	return (
		<textarea
			rows={rows}
			className={clsx(controlClasses, 'min-h-28 resize-y leading-relaxed [field-sizing:content] [&[readonly]]:bg-raised', className)}
			{...props}
		/>
	)
}
