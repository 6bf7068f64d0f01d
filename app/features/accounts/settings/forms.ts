import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'
import { cityField, confirmPasswordField, currentPasswordField, emailField, nameField, newPasswordField, passwordsMatch } from '../forms.ts'

/*
 * The settings page's forms: one schema each, read by the browser (to check as the member types)
 * and by the action (to decide).
 */

/** The word a member types to confirm the deletion of their account. */
export const DELETE_WORD = 'SUPPRIMER'

export const ProfileSchema = z.object({
	name: nameField,
	city: cityField.optional(),
})
export const EmailSchema = z.object({ newEmail: emailField, currentPassword: currentPasswordField })
export const EmailWithoutPasswordSchema = z.object({ newEmail: emailField })
export const ChangePasswordSchema = z
	.object({ currentPassword: currentPasswordField, newPassword: newPasswordField, confirm: confirmPasswordField })
	.superRefine(passwordsMatch('newPassword'))
export const SetPasswordSchema = z
	.object({ newPassword: newPasswordField, confirm: confirmPasswordField })
	.superRefine(passwordsMatch('newPassword'))
export const UnlinkSchema = z.object({ methodId: textField().min(1).max(255) })
export const deleteWord = textField({ error: lazyT('settings.validation.deleteWordRequired', { word: DELETE_WORD }) })
	.trim()
	.refine((value) => value === DELETE_WORD, { error: lazyT('settings.validation.deleteWordExact', { word: DELETE_WORD }) })
export const DeleteSchema = z.object({ confirmation: deleteWord, password: currentPasswordField })
export const DeleteWithoutPasswordSchema = z.object({ confirmation: deleteWord })

export const INTENTS = ['profile', 'email', 'change-password', 'set-password', 'unlink', 'revoke-others', 'delete-account'] as const
export type SettingsIntent = (typeof INTENTS)[number]
