import { z } from 'zod'
import { confirmPasswordField, currentPasswordField, emailField, nameField, newPasswordField, passwordsMatch } from '../forms.ts'

/** What an e-mailed link to /auth/claim is for. */
export const CLAIM_MODES = ['verifyEmail', 'resetPassword', 'setup', 'reward', 'newsletter'] as const
export type ClaimMode = (typeof CLAIM_MODES)[number]

/** What the page shows: a button to confirm, a form, a dead link, or the confirmation done. */
export type ClaimState = 'confirm' | 'form' | 'invalid' | 'done'

export const ResetSchema = z.object({ password: newPasswordField, confirm: confirmPasswordField }).superRefine(passwordsMatch('password'))

export const SetupSchema = z
	.object({ name: nameField, email: emailField, password: newPasswordField, confirm: confirmPasswordField })
	.superRefine(passwordsMatch('password'))

/** Confirming an address of an account with a password: the verifier proves the account is theirs. */
export const ConfirmSchema = z.object({ password: currentPasswordField })
