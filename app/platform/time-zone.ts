/**
 * The site's one time zone: every date is entered, shown, scheduled and cut into days in Paris
 * time (see docs/decisions/0006-paris-time.md).
 */
export const SITE_TIME_ZONE = 'Europe/Paris'
