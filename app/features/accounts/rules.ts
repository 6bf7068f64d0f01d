/** Account limits shown in the interface; no dependency, so that pages can import them freely. */
export { PASSWORD_MAX, PASSWORD_MIN } from '#app/platform/password-limits.ts'
export const EMAIL_MAX = 254
export const NAME_MAX = 80
export const CITY_MAX = 80
