import type { InitOptions } from 'i18next'

/** The one language of the site, and the seed's i18next settings shared by server and browser. */
export const LANGUAGE = 'fr-FR'

export const i18nOptions = {
	supportedLngs: [LANGUAGE],
	fallbackLng: LANGUAGE,
	load: 'currentOnly',
	ns: ['translation'],
	defaultNS: 'translation',
	interpolation: { escapeValue: false },
	// Translation loading: up to 5 retries from 350 ms, doubling, at most 10 reads at once.
	maxRetries: 5,
	retryTimeout: 350,
	maxParallelReads: 10,
	returnNull: false,
} satisfies InitOptions

export const detectionOptions = {
	order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
	lookupQuerystring: 'lng',
	lookupCookie: 'i18next',
	lookupLocalStorage: 'i18nextLng',
	lookupSessionStorage: 'i18nextLng',
	caches: ['localStorage'],
}

export const LOCALE_PATH = '/locales/{{lng}}/{{ns}}.json'
