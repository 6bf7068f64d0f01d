import type { TFunction, TranslateOptions } from './translate.ts'

/*
 * The Zod schemas the browser and the server share (account fields, the contact and event forms)
 * name their French messages by key, translated when a value is checked: with the server's strings
 * (platform/i18n.server.ts sets them at load) or the browser's (I18nProvider, before hydration).
 * A module-level `t` is not possible there: the browser's strings arrive after the modules load.
 */
let current: TFunction | undefined

export function setSchemaTranslator(t: TFunction) {
	current = t
}

/** A Zod `error`: the message of this key, looked up when the issue is raised (the key itself until strings are there). */
export function lazyT(key: string, options?: TranslateOptions): () => string {
	return () => (current ? current(key, options) : key)
}
