import { createContext, use, useContext, useMemo, type ReactNode } from 'react'
import { useMatches } from 'react-router'
import { unitsOfMatches } from './route-strings.ts'
import { setSchemaTranslator } from './schema-messages.ts'
import { createTranslator, type Resources, type TFunction } from './translate.ts'

interface I18nValue {
	t: TFunction
	language: string
}

/** In the browser: what a screen must wait for before its strings are there (null: nothing). */
type PendingStrings = (units: readonly string[]) => Promise<void> | null

const I18nContext = createContext<I18nValue | null>(null)
const PendingStringsContext = createContext<PendingStrings | null>(null)

/**
 * Gives the page its language and strings: the server's (all of them), or those the browser has
 * loaded so far, with `pending` to load what a new screen needs (./browser.ts).
 */
export function I18nProvider(props: { language: string; resources: Resources; pending?: PendingStrings; children: ReactNode }) {
	const value = useMemo(() => {
		const t = createTranslator(props.resources, props.language)
		// The shared form schemas' messages (./schema-messages.ts) come from these strings too.
		setSchemaTranslator(t)
		return { t, language: props.language }
	}, [props.resources, props.language])
	return (
		<I18nContext.Provider value={value}>
			<PendingStringsContext.Provider value={props.pending ?? null}>{props.children}</PendingStringsContext.Provider>
		</I18nContext.Provider>
	)
}

/** `const { t } = useTranslation()`, as with react-i18next. */
export function useTranslation(): I18nValue {
	const value = useContext(I18nContext)
	if (!value) throw new Error('useTranslation must be used inside <I18nProvider>')
	return value
}

/**
 * Shows its children once the strings of the routes on screen are loaded. A client-side navigation
 * renders in a transition: while the new screen's strings are on their way, the previous screen
 * stays (with its loading indicator) instead of raw keys.
 */
export function RouteStrings(props: { children: ReactNode }) {
	const pending = useContext(PendingStringsContext)
	const matches = useMatches()
	const wait = pending?.(unitsOfMatches(matches))
	if (wait) use(wait)
	return props.children
}
