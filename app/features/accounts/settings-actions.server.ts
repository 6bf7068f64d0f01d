import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { z } from 'zod'
import { deleteAccount } from '#app/features/accounts/account-data.server.ts'
import { failureHeaders, limit } from '#app/features/accounts/auth-actions.server.ts'
import { refuseWeakPassword } from '#app/features/accounts/password-policy.server.ts'
import { updateProfile } from '#app/features/accounts/profile.server.ts'
import {
	changePassword,
	hasPassword,
	isCurrentPassword,
	requestEmailChange,
	setFirstPassword,
	signOutOtherDevices,
	unlinkMethod,
} from '#app/features/accounts/settings.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import {
	ChangePasswordSchema,
	DeleteSchema,
	DeleteWithoutPasswordSchema,
	EmailSchema,
	EmailWithoutPasswordSchema,
	INTENTS,
	ProfileSchema,
	SetPasswordSchema,
	UnlinkSchema,
	type SettingsIntent,
} from './settings/forms.ts'
import type { AuthUser } from './types.ts'
import { httpError } from '#app/platform/http-error.ts'

/*
 * The settings page's actions, one per form (its `intent`): each validates with its form's schema,
 * spends one point of the member's settings limit, acts through Better Auth, and redirects with a
 * toast or answers the form's errors (passwords never sent back).
 */

/** What came back from a provider when a link was attempted (social.ts sends ?linked=1 or ?error=). */
export function linkNotice(params: URLSearchParams): { type: 'success' | 'error'; message: string } | null {
	const t = getT()
	if (params.get('linked') === '1') return { type: 'success', message: t('settings.methods.linked') }
	const code = params.get('error')
	if (!code) return null
	if (['access_denied', 'consent_required', 'login_required', 'interaction_required'].includes(code)) {
		return { type: 'error', message: t('settings.methods.errors.denied') }
	}
	if (
		[
			'email_does_not_match',
			"email_doesn't_match",
			'account_already_linked_to_different_user',
			'unable_to_link_account',
			'account_not_linked',
			'email_not_verified',
		].includes(code)
	) {
		return { type: 'error', message: t('settings.methods.errors.notLinkable') }
	}
	return { type: 'error', message: t('settings.methods.errors.unavailable') }
}

interface Replyable {
	reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]>
}

/** The answer to a refused form: its errors, next to the field concerned, and what was typed (passwords aside). */
function refuse(
	intent: SettingsIntent,
	submission: Replyable,
	failure: { status: number; message: string; field?: string; retryAfterSeconds?: number },
	hideFields: string[] = [],
) {
	const result = failure.field
		? submission.reply({ fieldErrors: { [failure.field]: [failure.message] }, hideFields })
		: submission.reply({ formErrors: [failure.message], hideFields })
	const headers = failure.retryAfterSeconds ? failureHeaders({ ok: false, ...failure }) : undefined
	return data({ intent, result }, { status: failure.status, headers })
}

const SETTINGS = '/dashboard/settings'

export async function settingsAction(request: Request, user: AuthUser, formData: FormData) {
	const intent = String(formData.get('intent') ?? '') as SettingsIntent
	if (!INTENTS.includes(intent)) throw httpError(400)
	const { database } = await getPlatform()
	const db = database.db
	const withPassword = await hasPassword(db, user.id)
	const limited = await limit([['settingsByAccount', user.id]])

	switch (intent) {
		case 'profile': {
			const submission = parseWithZod(formData, { schema: ProfileSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
			if (limited) return refuse(intent, submission, limited)
			await updateProfile(db, user.id, { ok: true, values: { name: submission.value.name, city: submission.value.city ?? '' }, clear: [] })
			return redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.profileSaved' })
		}

		case 'email': {
			const hide = ['currentPassword']
			const submission = parseWithZod(formData, { schema: withPassword ? EmailSchema : EmailWithoutPasswordSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: hide }) }, { status: 400 })
			if (limited) return refuse(intent, submission, limited, hide)
			if (withPassword) {
				const password = (submission.value as z.infer<typeof EmailSchema>).currentPassword
				const checked = await isCurrentPassword(request, password)
				if (checked === false)
					return refuse(
						intent,
						submission,
						{ status: 400, message: getT()('settings.errors.wrongPassword'), field: 'currentPassword' },
						hide,
					)
				if (checked !== true) return refuse(intent, submission, checked, hide)
			}
			const outcome = await requestEmailChange(request, user, submission.value.newEmail)
			if (!outcome.ok) return refuse(intent, submission, outcome, hide)
			return redirectWithFlash(`${SETTINGS}?email=sent`, {
				type: 'success',
				key: 'settings.flash.emailLinkSent',
				values: { email: submission.value.newEmail },
			})
		}

		case 'change-password':
		case 'set-password': {
			const hide = ['currentPassword', 'newPassword', 'confirm']
			const schema = (withPassword ? ChangePasswordSchema : SetPasswordSchema).superRefine(
				await refuseWeakPassword('newPassword', () => user),
			)
			const submission = parseWithZod(formData, { schema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: hide }) }, { status: 400 })
			if (limited) return refuse(intent, submission, limited, hide)
			if (intent === 'change-password' && !withPassword) {
				return refuse(intent, submission, { status: 400, message: getT()('settings.errors.noPassword') }, hide)
			}
			if (intent === 'set-password' && withPassword) {
				return refuse(intent, submission, { status: 400, message: getT()('settings.errors.passwordAlreadySet') }, hide)
			}
			const { newPassword } = submission.value
			const outcome = withPassword
				? await changePassword(request, user, (submission.value as z.infer<typeof ChangePasswordSchema>).currentPassword, newPassword)
				: await setFirstPassword(request, user, newPassword)
			if (!outcome.ok) return refuse(intent, submission, outcome, hide)
			return withPassword
				? redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.passwordChanged' }, { headers: outcome.headers })
				: redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.passwordSet' }, { headers: outcome.headers })
		}

		case 'unlink': {
			const submission = parseWithZod(formData, { schema: UnlinkSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
			if (limited) return refuse(intent, submission, limited)
			const outcome = await unlinkMethod(request, user.id, submission.value.methodId)
			if (!outcome.ok) return refuse(intent, submission, { ...outcome, field: undefined })
			return redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.methodUnlinked' }, { headers: outcome.headers })
		}

		case 'revoke-others': {
			const submission = parseWithZod(formData, { schema: z.object({}) })
			if (limited) return refuse(intent, submission, limited)
			const outcome = await signOutOtherDevices(request)
			if (!outcome.ok) return refuse(intent, submission, outcome)
			return redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.othersSignedOut' }, { headers: outcome.headers })
		}

		case 'delete-account': {
			const hide = ['password']
			const submission = parseWithZod(formData, { schema: withPassword ? DeleteSchema : DeleteWithoutPasswordSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: hide }) }, { status: 400 })
			if (limited) return refuse(intent, submission, limited, hide)
			const password = withPassword ? (submission.value as z.infer<typeof DeleteSchema>).password : null
			if (password !== null) {
				const checked = await isCurrentPassword(request, password)
				if (checked === false)
					return refuse(intent, submission, { status: 400, message: getT()('settings.errors.wrongPassword'), field: 'password' }, hide)
				if (checked !== true) return refuse(intent, submission, checked, hide)
			}
			const outcome = await deleteAccount(request, user, password)
			if (!outcome.ok) return refuse(intent, submission, outcome, hide)
			return redirectWithFlash('/', { type: 'success', key: 'settings.flash.accountDeleted' }, { headers: outcome.headers })
		}
	}
}
