import { z } from 'zod'
import { lazyT } from '#app/i18n/schema-messages.ts'

/*
 * Every text a person types goes through one of these, in every schema (forms and JSON API; the
 * linter refuses `z.string` anywhere else in app/, see .oxlintrc.json):
 * control characters (C0, DEL, C1; the NUL byte PostgreSQL refuses) and the bidirectional
 * overrides and isolates (which make « gpj.exe » read « exe.jpg ») are refused with a French
 * message. Multi-line text keeps its line breaks and tabs.
 */
const BIDI_CONTROLS = '\u202a-\u202e\u2066-\u2069'
const SINGLE_LINE_UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}]`, 'u')
const MULTI_LINE_UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}]`, 'u')

/** The refusal's message, looked up when a text is refused (app/i18n/schema-messages.ts). */
export const unsafeTextMessage = lazyT('errors.form.unsafeText')

/** Whether a text holds a character no field accepts (line breaks and tabs are fine in multi-line text). */
export function hasUnsafeCharacters(text: string, options: { multiline?: boolean } = {}): boolean {
	return (options.multiline ? MULTI_LINE_UNSAFE : SINGLE_LINE_UNSAFE).test(text)
}

/** The same text without those characters: for what is read but never refused (a search box in a URL). */
export function withoutUnsafeCharacters(text: string): string {
	return text.replace(new RegExp(SINGLE_LINE_UNSAFE.source, 'gu'), '')
}

/**
 * A string field that refuses unsafe characters; chain `.trim()`, `.min()`, `.max()` on it as on
 * `z.string()`. `error` is the message for a missing value.
 */
export function textField(options: { multiline?: boolean; error?: string | (() => string) } = {}) {
	const base = options.error ? z.string({ error: options.error }) : z.string()
	return base.refine((value) => !hasUnsafeCharacters(value, options), { error: unsafeTextMessage, abort: true })
}

/**
 * A string field that is read but never refused (a same-site path carried along a form, checked
 * again before use): the unsafe characters are removed instead.
 */
export function cleanedText(max: number) {
	return z.string().max(max).transform(withoutUnsafeCharacters)
}
