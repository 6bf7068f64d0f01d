/** A form-level error (not tied to one field), announced to screen readers. */
export function FormError(props: { id: string; errors?: string[] }) {
	if (!props.errors?.length) return <div id={props.id} />
	return (
		<div
			id={props.id}
			role="alert"
			className="rounded-lg border border-danger/60 bg-danger/10 px-4 py-3 text-sm font-medium"
		>
			{props.errors.join(' ')}
		</div>
	)
}
