/**
 * A form-level error (not tied to one field), announced to screen readers. The empty element stays
 * in the page so that Conform's `form.errorId` always points at something.
 */
export function FormError(props: { id: string; errors?: string[] }) {
	if (!props.errors?.length) return <div id={props.id} className="hidden" />
	return (
		<div
			id={props.id}
			role="alert"
			className="flex items-start gap-3 rounded-control border border-danger/50 bg-danger/10 px-4 py-3 text-sm font-medium text-fg"
		>
			<svg aria-hidden="true" viewBox="0 0 16 16" className="mt-0.5 size-4 shrink-0 text-danger">
				<circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
				<path d="M8 4.5v4.25" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
				<circle cx="8" cy="11.25" r="1" fill="currentColor" />
			</svg>
			<div className="flex flex-col gap-1">
				{props.errors.map((error) => (
					<p key={error}>{error}</p>
				))}
			</div>
		</div>
	)
}
