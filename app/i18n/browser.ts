import { FALLBACK_LANGUAGE, LOCALE_PATH, LOADING, DETECTION, SUPPORTED_LANGUAGES } from './settings.ts'
import type { Resources } from './translate.ts'

/*
 * The browser side of the seed's i18next settings: detect the language in the seed's order, keep
 * it in localStorage, and load /locales/{lng}/translation.json with retries.
 */
function supported(candidate: string | null | undefined): string | null {
	if (!candidate) return null
	const exact = SUPPORTED_LANGUAGES.find((lng) => lng.toLowerCase() === candidate.toLowerCase())
	if (exact) return exact
	const base = candidate.split('-')[0]?.toLowerCase()
	return SUPPORTED_LANGUAGES.find((lng) => lng.split('-')[0]!.toLowerCase() === base) ?? null
}

function safe<T>(read: () => T): T | null {
	try {
		return read()
	} catch {
		return null // storage can be disabled (private modes, strict settings)
	}
}

export function detectLanguage(): string {
	const sources: Record<string, () => (string | null | undefined)[]> = {
		querystring: () => [new URLSearchParams(location.search).get(DETECTION.lookupQuerystring)],
		cookie: () => [document.cookie.match(new RegExp(`(?:^|; )${DETECTION.lookupCookie}=([^;]*)`))?.[1]],
		localStorage: () => [safe(() => localStorage.getItem(DETECTION.lookupLocalStorage))],
		sessionStorage: () => [safe(() => sessionStorage.getItem(DETECTION.lookupSessionStorage))],
		navigator: () => [...(navigator.languages ?? []), navigator.language],
		htmlTag: () => [document.documentElement.lang],
	}
	let language = FALLBACK_LANGUAGE
	search: for (const source of DETECTION.order) {
		for (const candidate of sources[source]?.() ?? []) {
			const found = supported(candidate)
			if (found) {
				language = found
				break search
			}
		}
	}
	safe(() => localStorage.setItem(DETECTION.lookupLocalStorage, language))
	return language
}

let inFlight = 0
const waiting: (() => void)[] = []

async function slot<T>(run: () => Promise<T>): Promise<T> {
	if (inFlight >= LOADING.maxParallelReads) await new Promise<void>((resolve) => waiting.push(resolve))
	inFlight++
	try {
		return await run()
	} finally {
		inFlight--
		waiting.shift()?.()
	}
}

/** Loads the translation file: up to 5 retries, from 350 ms and doubling, at most 10 reads at once. */
export async function loadTranslations(language: string, fetcher: typeof fetch = fetch): Promise<Resources> {
	const url = LOCALE_PATH.replace('{{lng}}', language).replace('{{ns}}', 'translation')
	let delay = LOADING.retryTimeout
	for (let attempt = 0; ; attempt++) {
		let failure: unknown
		try {
			const response = await slot(() => fetcher(url, { credentials: 'same-origin' }))
			if (response.ok) return (await response.json()) as Resources
			failure = new Error(`${url}: ${response.status}`)
		} catch (error) {
			failure = error
		}
		if (attempt >= LOADING.maxRetries) throw failure
		await new Promise((resolve) => setTimeout(resolve, delay))
		delay *= 2
	}
}
