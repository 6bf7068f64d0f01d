/** Password length bounds: Better Auth enforces them, the forms state and check them. No dependency. */
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 128
