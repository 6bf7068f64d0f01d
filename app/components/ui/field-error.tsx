/** An error under a control: colour, icon and words, so it never relies on colour alone. */
export function FieldError(props: { id: string; errors: string[] }) {
	return (
		<p id={props.id} className="flex items-start gap-1.5 text-sm font-medium text-danger" role="alert">
			<svg aria-hidden="true" viewBox="0 0 16 16" className="mt-0.5 size-4 shrink-0">
				<circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
				<path d="M8 4.5v4.25" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
				<circle cx="8" cy="11.25" r="1" fill="currentColor" />
			</svg>
			{/* One line per error: two refusals of one password never run together in one sentence. */}
			<span className="flex flex-col gap-0.5">
				{props.errors.map((error) => (
					<span key={error}>{error}</span>
				))}
			</span>
		</p>
	)
}
