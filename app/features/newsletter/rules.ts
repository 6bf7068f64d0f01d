/*
 * The newsletter's rules, shared by the browser and the server, with no dependency (its forms'
 * schemas are in forms.ts). The retention figures are the ones the purge applies and the privacy
 * policy states.
 */

/** How long a confirmation link stays valid. */
export const CONFIRM_TTL_HOURS = 72
/** How long « Me réinscrire » acts at once on the page that has just unsubscribed; later, a confirmation mail. */
export const RESUBSCRIBE_WINDOW_MINUTES = 10
/** A pending address that never confirmed is deleted this many days after it was entered. */
export const PENDING_PURGE_DAYS = 7
/** A newsletter's delivery record (address, date, outcome) is kept this long, then deleted. */
export const DELIVERY_RECORD_DAYS = 365
/** The privacy policy version a subscriber consents to (change it with content/policies/privacy.md). */
export const POLICY_VERSION = '2026-11'

export const SUBJECT_MAX = 150
export const PREHEADER_MAX = 200
export const BODY_MAX = 50_000
export const CONSENT_NOTE_MAX = 200
/** Lines an import may hold. */
export const IMPORT_MAX_LINES = 100_000
