/** The seed's i18next settings: one language, one namespace, its detection order and retries. */
export const FALLBACK_LANGUAGE = 'fr-FR'
export const SUPPORTED_LANGUAGES = ['fr-FR']
export const LOCALE_PATH = '/locales/{{lng}}/{{ns}}.json'

export const DETECTION = {
	order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
	lookupQuerystring: 'lng',
	lookupCookie: 'i18next',
	lookupLocalStorage: 'i18nextLng',
	lookupSessionStorage: 'i18nextLng',
	caches: ['localStorage'],
} as const

export const LOADING = { maxRetries: 5, retryTimeout: 350, maxParallelReads: 10 } as const
