/*
 * The limits of redeemable codes, in one place: the purge, the forms and the privacy policy all
 * read them from here.
 */
export const CODE_RETENTION = {
	/** How long a signed-out visitor's code stays reserved for them while they sign in or sign up. */
	reservationHours: 24,
	/** How long each redemption attempt (outcome and time only) is kept for the statistics. */
	attemptDays: 365,
	/** How long the record of a download (file, member, time) is kept. */
	downloadDays: 365,
} as const

/** The most codes one generated batch may hold. */
export const BATCH_MAX = 100_000
/**
 * Codes inserted per statement while a batch is generated: one short transaction (tens of
 * milliseconds on the embedded database), then the event loop gets a turn (work-slices.server.ts).
 */
export const BATCH_CHUNK = 1_000
/** The most lines one CSV import may hold. */
export const IMPORT_MAX_LINES = 100_000
/** The most uses one code may have. */
export const USES_MAX = 10_000
/** How long a download link from « Mes contenus » works. */
export const DOWNLOAD_LINK_SECONDS = 10 * 60
/** The least time a redemption takes, whatever the outcome, so that time tells nothing. */
export const REDEEM_FLOOR_MS = 250
/** The most bytes one unlocked file may have. */
export const FILE_MAX_BYTES = 200 * 1024 * 1024
/**
 * Cards per printed A4 sheet (2 × 5 cards of 85 × 54 mm), and per part of the print sheet: 20 A4
 * pages at a time: on a busy machine a part of 500 cards (1.4 MB of HTML) took 3 s to render where
 * the campaign screen took 0.2 s, and 11 s for Chromium to print.
 */
export const CARDS_PER_SHEET = 10
export const CARDS_PER_PAGE = 200
