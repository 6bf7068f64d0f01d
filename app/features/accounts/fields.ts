import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'

/*
 * The fields every account form shares, with their French messages. Routes build their form
 * schemas from these, so that sign-up, sign-in, settings and reset say the same thing.
 */
import { CITY_MAX, EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from './rules.ts'

export { CITY_MAX, EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN }

export const emailField = textField({ error: 'Saisissez votre adresse e-mail.' })
	.trim()
	.toLowerCase()
	.min(1, 'Saisissez votre adresse e-mail.')
	.max(EMAIL_MAX, 'Cette adresse e-mail est trop longue.')
	.pipe(z.email('Cette adresse e-mail n’est pas valide (exemple : prenom@exemple.fr).'))

export const newPasswordField = z
	.string({ error: 'Choisissez un mot de passe.' })
	.min(PASSWORD_MIN, `Le mot de passe doit contenir au moins ${PASSWORD_MIN} caractères.`)
	.max(PASSWORD_MAX, `Le mot de passe ne peut pas dépasser ${PASSWORD_MAX} caractères.`)

export const currentPasswordField = z
	.string({ error: 'Saisissez votre mot de passe.' })
	.min(1, 'Saisissez votre mot de passe.')
	.max(PASSWORD_MAX, 'Mot de passe incorrect.')

export const nameField = textField({ error: 'Indiquez votre nom ou un pseudonyme.' })
	.trim()
	.min(1, 'Indiquez votre nom ou un pseudonyme.')
	.max(NAME_MAX, `Le nom ne peut pas dépasser ${NAME_MAX} caractères.`)

/** A town, optional: an empty value clears it. */
export const cityField = textField().trim().max(CITY_MAX, `La ville ne peut pas dépasser ${CITY_MAX} caractères.`)

/** A same-site path sent along with a form, checked again by safeRedirect before use. */
/** Never stored nor shown, only ever read through safeRedirect: a bad value falls back, the form is not refused. */
export const redirectToField = z.string().max(2048).optional()

/** The new password typed a second time. */
export const confirmPasswordField = z.string({ error: 'Saisissez à nouveau le mot de passe.' })

/** The refinement of every form that asks for a new password twice: both must be the same. */
export function passwordsMatch<Key extends string>(passwordKey: Key) {
	return (value: Record<Key | 'confirm', string>, ctx: z.RefinementCtx) => {
		if (value[passwordKey] !== value.confirm) {
			ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'Les deux mots de passe ne sont pas identiques.' })
		}
	}
}
