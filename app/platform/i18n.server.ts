import translation from '../../public/locales/fr-FR/translation.json' with { type: 'json' }
import { FALLBACK_LANGUAGE } from '#app/i18n/settings.ts'
import { setSchemaTranslator } from '#app/i18n/schema-messages.ts'
import { createTranslator, type Resources, type TFunction } from '#app/i18n/translate.ts'

/* One language: the server reads its strings once, from the same file the browser loads. */
export const LANGUAGE = FALLBACK_LANGUAGE
export const resources = translation as Resources

let t: TFunction | undefined

/** `t` for loaders, actions and meta on the server. */
export function getT(): TFunction {
	t ??= createTranslator(resources, LANGUAGE)
	return t
}

// The shared form schemas' messages (app/i18n/schema-messages.ts) come from the same strings.
setSchemaTranslator((key, options) => getT()(key, options))
