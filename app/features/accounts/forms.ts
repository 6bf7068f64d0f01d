import { z } from 'zod'
import { cleanedText, textField } from '#app/platform/text-field.ts'

/*
 * The fields every account form shares, with their French messages (keys of translation.json). Routes build their form
 * schemas from these, so that sign-up, sign-in, settings and reset say the same thing.
 */
import { CITY_MAX, EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from './rules.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'

export { CITY_MAX, EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN }

export const emailField = textField({ error: lazyT('auth.validation.emailRequired') })
	.trim()
	.toLowerCase()
	.min(1, { error: lazyT('auth.validation.emailRequired') })
	.max(EMAIL_MAX, { error: lazyT('auth.validation.emailTooLong') })
	.pipe(z.email({ error: lazyT('auth.validation.emailInvalid') }))

export const newPasswordField = textField({ error: lazyT('auth.validation.passwordRequired') })
	.min(PASSWORD_MIN, { error: lazyT('auth.validation.passwordMin', { min: PASSWORD_MIN }) })
	.max(PASSWORD_MAX, { error: lazyT('auth.validation.passwordMax', { max: PASSWORD_MAX }) })

export const currentPasswordField = textField({ error: lazyT('auth.validation.currentPasswordRequired') })
	.min(1, { error: lazyT('auth.validation.currentPasswordRequired') })
	.max(PASSWORD_MAX, { error: lazyT('auth.validation.currentPasswordWrong') })

export const nameField = textField({ error: lazyT('auth.validation.nameRequired') })
	.trim()
	.min(1, { error: lazyT('auth.validation.nameRequired') })
	.max(NAME_MAX, { error: lazyT('auth.validation.nameMax', { max: NAME_MAX }) })

/** A town, optional: an empty value clears it. */
export const cityField = textField()
	.trim()
	.max(CITY_MAX, { error: lazyT('auth.validation.cityMax', { max: CITY_MAX }) })

/** A same-site path sent along with a form, checked again by safeRedirect before use. */
/** Never stored nor shown, only ever read through safeRedirect: a bad value falls back, the form is not refused. */
export const redirectToField = cleanedText(2048).optional()

/** The new password typed a second time. */
export const confirmPasswordField = textField({ error: lazyT('auth.validation.confirmRequired') })

/** The refinement of every form that asks for a new password twice: both must be the same. */
export function passwordsMatch<Key extends string>(passwordKey: Key) {
	return (value: Record<Key | 'confirm', string>, ctx: z.RefinementCtx) => {
		if (value[passwordKey] !== value.confirm) {
			ctx.addIssue({ code: 'custom', path: ['confirm'], message: lazyT('auth.validation.passwordsDiffer')() })
		}
	}
}
