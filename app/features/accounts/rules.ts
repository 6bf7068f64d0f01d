/** Account limits shown in the interface; no dependency, so that pages can import them freely. */
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 128
export const EMAIL_MAX = 254
export const NAME_MAX = 80
