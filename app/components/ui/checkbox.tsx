import { clsx } from 'clsx'
import { useId, type ComponentProps, type ReactNode } from 'react'
import { FieldError } from './field-error.tsx'

/** A checkbox with its label (the whole row is the touch target), an optional hint and its error. */
export function Checkbox({
	label,
	hint,
	errors,
	className,
	...props
}: Omit<ComponentProps<'input'>, 'type'> & { label: ReactNode; hint?: ReactNode; errors?: string[] | null }) {
	const generated = useId()
	const id = props.id ?? generated
	const hintId = hint ? `${id}-hint` : undefined
	const errorId = errors?.length ? `${id}-error` : undefined
	const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
	return (
		<div className={clsx('flex flex-col gap-1', className)}>
			<div className="flex min-h-11 items-start gap-3 py-1">
				<span className="relative mt-px grid size-6 shrink-0 place-items-center">
					<input
						{...props}
						id={id}
						type="checkbox"
						aria-invalid={errorId ? true : undefined}
						aria-describedby={describedBy}
						className={clsx(
							'peer size-5.5 cursor-pointer appearance-none rounded-[0.3rem] border-2 border-line-strong bg-field',
							'transition-colors duration-150 hover:border-fg/80',
							'checked:border-accent checked:bg-accent aria-invalid:border-danger',
							'disabled:cursor-not-allowed disabled:opacity-60',
						)}
					/>
					<svg
						aria-hidden="true"
						viewBox="0 0 16 16"
						className="pointer-events-none absolute size-4 text-on-accent opacity-0 peer-checked:opacity-100"
					>
						<path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round" strokeLinejoin="round" />
					</svg>
				</span>
				<label htmlFor={id} className="cursor-pointer text-sm leading-6 text-fg">
					{label}
				</label>
			</div>
			{hint ? (
				<p id={hintId} className="pl-9 text-sm text-muted">
					{hint}
				</p>
			) : null}
			{errorId ? (
				<div className="pl-9">
					<FieldError id={errorId} errors={errors!} />
				</div>
			) : null}
		</div>
	)
}
