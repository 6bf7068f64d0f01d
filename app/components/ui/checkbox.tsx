import { clsx } from 'clsx'
import { useId, type ComponentProps, type ReactNode } from 'react'

export function Checkbox({
	label,
	errors,
	className,
	...props
}: Omit<ComponentProps<'input'>, 'type'> & { label: ReactNode; errors?: string[] | null }) {
	const generated = useId()
	const id = props.id ?? generated
	const errorId = errors?.length ? `${id}-error` : undefined
	return (
		<div className={clsx('flex flex-col gap-1.5', className)}>
			<div className="flex items-start gap-3">
				<input
					{...props}
					id={id}
					type="checkbox"
					aria-invalid={errorId ? true : undefined}
					aria-describedby={errorId}
					className="mt-0.5 size-5 shrink-0 accent-[var(--color-accent)]"
				/>
				<label htmlFor={id} className="text-sm leading-6">
					{label}
				</label>
			</div>
			{errorId ? (
				<p id={errorId} className="text-sm font-medium text-danger" role="alert">
					{errors!.join(' ')}
				</p>
			) : null}
		</div>
	)
}
