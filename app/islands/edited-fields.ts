/*
 * The island of a refused form on a page that does not hydrate (app/hydration.ts), loaded only
 * with the server's answer that refused it (components/forms/validation.ts, `useEditedFields`):
 * a field edited since that answer no longer shows its message, as the hydrated hook does. Nothing
 * is checked or posted while typing; the server judges the field again at the next submit.
 */
document.addEventListener('input', (event) => {
	const field = event.target
	if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement)) return
	if (!field.form || !field.name) return
	for (const control of field.form.querySelectorAll(`[name="${CSS.escape(field.name)}"][aria-invalid="true"]`)) {
		const described = (control.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
		const kept = described.filter((id) => {
			const message = document.getElementById(id)
			// The field's own message (components/ui/field-error.tsx); a hint stays.
			if (!id.endsWith('-error') || !message) return true
			message.hidden = true
			return false
		})
		control.removeAttribute('aria-invalid')
		if (kept.length > 0) control.setAttribute('aria-describedby', kept.join(' '))
		else control.removeAttribute('aria-describedby')
	}
})
