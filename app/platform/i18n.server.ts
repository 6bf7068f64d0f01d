import i18next, { type i18n, type TFunction } from 'i18next'
import { initReactI18next } from 'react-i18next'
import translation from '../../public/locales/fr-FR/translation.json'
import { i18nOptions, LANGUAGE } from '#app/i18n.ts'

/* One language, so one i18next instance serves every request; it is ready before the first render. */
let instance: i18n | undefined

export function getI18n(): i18n {
	if (!instance) {
		instance = i18next.createInstance()
		void instance.use(initReactI18next).init({
			...i18nOptions,
			lng: LANGUAGE,
			resources: { [LANGUAGE]: { translation } },
			initAsync: false,
		})
	}
	return instance
}

/** `t` for loaders, actions and meta on the server. */
export function getT(): TFunction {
	return getI18n().t
}
