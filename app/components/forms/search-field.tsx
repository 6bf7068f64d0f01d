import { clsx } from 'clsx'
import { Search } from '#app/components/icons.tsx'
import { Input } from '#app/components/ui/input.tsx'

/**
 * A list's search box inside its GET form: `q` in the address, a magnifier in the field, its label
 * for screen readers only (the placeholder and the form's search landmark say the rest). Keyed on
 * the search, so that it shows the one in the address after every navigation.
 */
export function SearchField(props: {
	id: string
	label: string
	placeholder: string
	value: string
	maxLength: number
	className?: string
}) {
	return (
		<div className={clsx('relative min-w-0 flex-1 basis-56', props.className)}>
			<label htmlFor={props.id} className="sr-only">
				{props.label}
			</label>
			<Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
			<Input
				id={props.id}
				type="search"
				name="q"
				defaultValue={props.value}
				key={props.value}
				maxLength={props.maxLength}
				placeholder={props.placeholder}
				className="pl-9"
				autoComplete="off"
			/>
		</div>
	)
}
