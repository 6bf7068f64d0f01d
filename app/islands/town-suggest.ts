/*
 * The town field's island (features/towns/town-field.tsx) on the pages that do not hydrate
 * (app/hydration.ts): the landing's newsletter form and the sign-up form. As the person types, the
 * browser's own suggestion list (the field's `<datalist>`) fills with a few labels from the site's
 * suggestions endpoint, named by the field's `data-town-suggest`. Without this script the field
 * is plain text, and the server resolves the name (and asks which town when several bear it).
 */
const MIN_LENGTH = 2
const WAIT_MS = 120

for (const input of document.querySelectorAll<HTMLInputElement>('input[data-town-suggest]')) {
	if (input.dataset.townSuggestReady) continue
	input.dataset.townSuggestReady = 'yes'
	const endpoint = input.dataset.townSuggest!
	const list = input.list
	if (!list) continue
	let timer: ReturnType<typeof setTimeout> | undefined
	let request: AbortController | undefined
	input.addEventListener('input', () => {
		clearTimeout(timer)
		request?.abort()
		const text = input.value
		if (text.trim().length < MIN_LENGTH) {
			list.replaceChildren()
			return
		}
		timer = setTimeout(async () => {
			const controller = new AbortController()
			request = controller
			try {
				const response = await fetch(`${endpoint}?q=${encodeURIComponent(text)}`, { signal: controller.signal })
				const body = response.ok ? ((await response.json()) as { towns: string[] }) : { towns: [] }
				list.replaceChildren(
					...body.towns.map((label) => {
						const option = document.createElement('option')
						option.value = label
						option.textContent = label
						return option
					}),
				)
			} catch {
				// Aborted by the next keystroke, or no network: the field stays plain text.
			}
		}, WAIT_MS)
	})
}
