/*
 * The contact form's subjects and limits, without the schemas (forms.ts): the page's component needs
 * them in the browser, and importing them from here keeps Zod out of the public page's download.
 */

/** The same list as the table's (checked in contact.server.ts); kept here so the browser bundle has no database code. */
export const CONTACT_SUBJECTS = ['booking', 'presse', 'autre'] as const
export type ContactSubjectValue = (typeof CONTACT_SUBJECTS)[number]

export const CONTACT_NAME_MAX = 100
export const CONTACT_MESSAGE_MIN = 10
export const CONTACT_MESSAGE_MAX = 5_000
export const CONTACT_REPLY_MAX = 10_000
