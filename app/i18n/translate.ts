/*
 * The site's translation function, shared by the server and the browser. It implements the part of
 * i18next's behaviour the site uses — nested keys, `{{name}}` interpolation without escaping (React
 * escapes), `count` plurals (`key_one` / `key_other`), `defaultValue` — in a few hundred bytes,
 * because i18next itself weighed more than the whole JavaScript budget of a public page.
 */
export type Resources = { [key: string]: string | Resources }
export type TranslateOptions = Record<string, unknown> & { count?: number; defaultValue?: string }
export type TFunction = (key: string, options?: TranslateOptions) => string

function lookup(resources: Resources, key: string): string | undefined {
	let node: string | Resources | undefined = resources
	for (const part of key.split('.')) {
		if (typeof node !== 'object' || node === null) return undefined
		node = node[part]
	}
	return typeof node === 'string' ? node : undefined
}

/** One Intl.PluralRules per language, and one translator per set of strings and language. */
const pluralRules = new Map<string, Intl.PluralRules>()
const translators = new WeakMap<Resources, Map<string, TFunction>>()

/**
 * `t` for these strings in this language. Built once per process (the server renders every page
 * with the same strings): a render only looks the translator up.
 */
export function createTranslator(resources: Resources, language: string): TFunction {
	let byLanguage = translators.get(resources)
	if (!byLanguage) translators.set(resources, (byLanguage = new Map()))
	let t = byLanguage.get(language)
	if (!t) byLanguage.set(language, (t = buildTranslator(resources, language)))
	return t
}

function buildTranslator(resources: Resources, language: string): TFunction {
	// Made at the first count, not before: a browser's first use of Intl loads its locale data (some
	// 30 ms in one task), which a page that counts nothing while it hydrates need not wait for.
	const plurals = () => {
		let rules = pluralRules.get(language)
		if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)))
		return rules
	}
	// Each string found is remembered by its key: a render looks up the same keys again and again.
	// Only keys that exist are kept, so their number is bounded by the strings themselves.
	const found = new Map<string, string>()
	const find = (key: string) => {
		let text = found.get(key)
		if (text === undefined) {
			text = lookup(resources, key)
			if (text !== undefined) found.set(key, text)
		}
		return text
	}
	return (key, options) => {
		let text: string | undefined
		if (typeof options?.count === 'number') text = find(`${key}_${plurals().select(options.count)}`)
		text ??= find(key) ?? options?.defaultValue
		// A missing key shows itself, as i18next does: visible in review, caught by the i18n test.
		if (text === undefined) return key
		if (!options || !text.includes('{{')) return text
		return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (match, name: string) => {
			const value = options[name]
			return value === undefined || value === null ? match : String(value)
		})
	}
}
