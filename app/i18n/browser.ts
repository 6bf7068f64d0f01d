import { FALLBACK_LANGUAGE } from './settings.ts'
import type { Resources } from './translate.ts'

/*
 * The browser's strings: the one translation file, loaded before hydration (the root preloads it
 * with the HTML). The site speaks French only, so there is no language to detect.
 */
const TRANSLATION_URL = `/locales/${FALLBACK_LANGUAGE}/translation.json`
const RETRIES = 5
const FIRST_DELAY_MS = 350

/** Loads the translation file: up to 5 retries, from 350 ms and doubling. */
export async function loadTranslations(fetcher: typeof fetch = fetch): Promise<Resources> {
	let delay = FIRST_DELAY_MS
	for (let attempt = 0; ; attempt++) {
		let failure: unknown
		try {
			const response = await fetcher(TRANSLATION_URL, { credentials: 'same-origin' })
			if (response.ok) return (await response.json()) as Resources
			failure = new Error(`${TRANSLATION_URL}: ${response.status}`)
		} catch (error) {
			failure = error
		}
		if (attempt >= RETRIES) throw failure
		await new Promise((resolve) => setTimeout(resolve, delay))
		delay *= 2
	}
}
