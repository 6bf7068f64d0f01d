import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { browserStrings, pendingStrings, stringsRequested } from './i18n/browser.ts'
import { FALLBACK_LANGUAGE } from './i18n/settings.ts'
import { I18nProvider } from './i18n/react.tsx'

async function hydrate() {
	// The routes of this page asked for their strings as their modules loaded (i18n/route-strings.ts).
	await stringsRequested()
	startTransition(() => {
		hydrateRoot(
			document,
			<I18nProvider language={FALLBACK_LANGUAGE} resources={browserStrings} pending={pendingStrings}>
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
