import { clsx } from 'clsx'
import { useId, type ReactNode } from 'react'
import { FieldError } from './field-error.tsx'

export { Input } from './input.tsx'

/**
 * Label, control, hint and error, wired together for assistive technology. The control comes from
 * the render prop, which hands it its id and aria attributes:
 * `<Field label="E-mail">{(control) => <Input {...control} name="email" />}</Field>`.
 */
export function Field(props: {
	label: ReactNode
	hint?: ReactNode
	errors?: string[] | null
	/** Shown after the label, e.g. « facultatif ». */
	optional?: ReactNode
	className?: string
	children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode
}) {
	const id = useId()
	const hintId = props.hint ? `${id}-hint` : undefined
	const errorId = props.errors?.length ? `${id}-error` : undefined
	const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
	return (
		<div className={clsx('flex flex-col gap-1.5', props.className)}>
			<label htmlFor={id} className="text-sm font-semibold text-fg">
				{props.label}
				{props.optional ? <span className="ml-1.5 font-normal text-muted">{props.optional}</span> : null}
			</label>
			{props.children({ id, 'aria-describedby': describedBy, 'aria-invalid': errorId ? true : undefined })}
			{props.hint ? (
				<p id={hintId} className="text-sm text-muted">
					{props.hint}
				</p>
			) : null}
			{errorId ? <FieldError id={errorId} errors={props.errors!} /> : null}
		</div>
	)
}
