/** The site's one language: every page is French (docs/decisions/own-translation-function.md). */
export const FALLBACK_LANGUAGE = 'fr-FR'
