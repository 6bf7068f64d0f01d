/** The site's one language: every page is French (docs/decisions/0005-own-translation-function.md). */
export const FALLBACK_LANGUAGE = 'fr-FR'
