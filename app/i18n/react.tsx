import { createContext, useContext, useMemo, type ReactNode } from 'react'
import { setSchemaTranslator } from './schema-messages.ts'
import { createTranslator, type Resources, type TFunction } from './translate.ts'

interface I18nValue {
	t: TFunction
	language: string
}

const I18nContext = createContext<I18nValue | null>(null)

/** Gives the page its language and strings (the server's, or those the browser loaded). */
export function I18nProvider(props: { language: string; resources: Resources; children: ReactNode }) {
	const value = useMemo(() => {
		const t = createTranslator(props.resources, props.language)
		// The shared form schemas' messages (./schema-messages.ts) come from these strings too.
		setSchemaTranslator(t)
		return { t, language: props.language }
	}, [props.resources, props.language])
	return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>
}

/** `const { t } = useTranslation()`, as with react-i18next. */
export function useTranslation(): I18nValue {
	const value = useContext(I18nContext)
	if (!value) throw new Error('useTranslation must be used inside <I18nProvider>')
	return value
}
