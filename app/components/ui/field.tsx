import { clsx } from 'clsx'
import { useId, type ComponentProps, type ReactNode } from 'react'

/** Label, control, hint and error, wired together for assistive technology. */
export function Field(props: {
	label: ReactNode
	hint?: ReactNode
	errors?: string[] | null
	className?: string
	children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode
}) {
	const id = useId()
	const hintId = props.hint ? `${id}-hint` : undefined
	const errorId = props.errors?.length ? `${id}-error` : undefined
	const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
	return (
		<div className={clsx('flex flex-col gap-1.5', props.className)}>
			<label htmlFor={id} className="text-sm font-semibold">
				{props.label}
			</label>
			{props.children({ id, 'aria-describedby': describedBy, 'aria-invalid': errorId ? true : undefined })}
			{props.hint ? (
				<p id={hintId} className="text-sm opacity-75">
					{props.hint}
				</p>
			) : null}
			{errorId ? (
				<p id={errorId} className="text-sm font-medium text-danger" role="alert">
					{props.errors!.join(' ')}
				</p>
			) : null}
		</div>
	)
}

export const controlClasses =
	'min-h-11 w-full rounded-lg border border-current/25 bg-transparent px-3 py-2 text-base ' +
	'placeholder:opacity-60 aria-invalid:border-danger focus-visible:border-accent'

export function Input({ className, ...props }: ComponentProps<'input'>) {
	return <input className={clsx(controlClasses, className)} {...props} />
}
