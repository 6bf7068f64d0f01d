import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { loadTranslations } from './i18n/browser.ts'
import { FALLBACK_LANGUAGE } from './i18n/settings.ts'
import { I18nProvider } from './i18n/react.tsx'

async function hydrate() {
	const language = FALLBACK_LANGUAGE
	const resources = await loadTranslations()
	startTransition(() => {
		hydrateRoot(
			document,
			<I18nProvider language={language} resources={resources}>
				<StrictMode>
					<HydratedRouter />
				</StrictMode>
			</I18nProvider>,
		)
	})
}

hydrate().catch((error) => {
	// The page stays as the server rendered it: readable, and its forms still work without JavaScript.
	console.error('Hydration skipped:', error)
})
