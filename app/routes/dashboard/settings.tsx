import { getZodConstraint } from '@conform-to/zod/v4'
import type { Route } from './+types/settings'
import { NewsletterSetting } from '#app/features/newsletter/member-setting.tsx'
import { readMemberSubscription, type MemberSubscription } from '#app/features/newsletter/member-subscription.server.ts'
import { memberTownAction } from '#app/features/newsletter/town.server.ts'
import { retryAfterHeaders } from '#app/features/accounts/auth-actions.server.ts'
import { getProfile } from '#app/features/accounts/profile.server.ts'
import { currentSessionId, requireUser } from '#app/features/accounts/session.server.ts'
import { linkNotice, settingsAction } from '#app/features/accounts/settings-actions.server.ts'
import { hasPassword, listActiveSessions, listSignInMethods } from '#app/features/accounts/settings.server.ts'
import {
	ChangePasswordSchema,
	DeleteSchema,
	DeleteWithoutPasswordSchema,
	EmailSchema,
	EmailWithoutPasswordSchema,
	ProfileSchema,
	SetPasswordSchema,
} from '#app/features/accounts/settings/forms.ts'
import { SettingsPage } from '#app/features/accounts/settings/settings-page.tsx'
import type { SettingsData } from '#app/features/accounts/settings/types.ts'
import { memberAvatar } from '#app/features/media/media.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { configuredProviders } from '#app/platform/auth.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings(
	'settings',
	'media',
	'newsletter.setting',
	'newsletter.status',
	'towns.field',
	'newsletter.admin',
	'auth.validation',
)

/*
 * /dashboard/settings: the member's account, section by section (features/accounts/settings).
 * Each section's form posts here with its `intent`; features/accounts/settings-actions.server.ts
 * answers it.
 */

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

/** An action's 429 keeps its Retry-After on the way to the browser. */
export function headers(args: Route.HeadersArgs) {
	return retryAfterHeaders(args)
}

export async function loader({ request }: Route.LoaderArgs): Promise<
	SettingsData & {
		title: string
		newsletter: MemberSubscription['status']
		town: MemberSubscription['town']
	}
> {
	const user = await requireUser(request)
	const { database, env } = await getPlatform()
	const db = database.db
	const params = new URL(request.url).searchParams
	const [profile, withPassword, methods, sessionId, avatar, subscription] = await Promise.all([
		getProfile(db, user.id),
		hasPassword(db, user.id),
		listSignInMethods(db, user.id),
		currentSessionId(request),
		memberAvatar(db, user.id),
		// Read afresh: the page that changes it.
		readMemberSubscription(db, user.email),
	])
	const linked = new Set(methods.map((m) => m.providerId))
	return {
		title: pageTitle(getT()('settings.metaTitle')),
		// A new key on every load: after a successful change (a redirect here), the forms start empty again.
		formKey: crypto.randomUUID(),
		profile: {
			name: profile?.name ?? user.name,
			city: profile?.city ?? '',
			email: profile?.email ?? user.email,
			emailVerified: profile?.emailVerified ?? user.emailVerified,
		},
		avatar,
		hasPassword: withPassword,
		methods,
		linkable: configuredProviders(env).filter((p) => !linked.has(p.id)),
		sessions: await listActiveSessions(db, user.id, sessionId),
		newsletter: subscription.status,
		town: subscription.town,
		emailSent: params.get('email') === 'sent',
		linkNotice: linkNotice(params),
		constraint: {
			profile: getZodConstraint(ProfileSchema),
			email: getZodConstraint(withPassword ? EmailSchema : EmailWithoutPasswordSchema),
			password: getZodConstraint(withPassword ? ChangePasswordSchema : SetPasswordSchema),
			deletion: getZodConstraint(withPassword ? DeleteSchema : DeleteWithoutPasswordSchema),
		},
	}
}

export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const formData = await request.formData()
	if (formData.get('intent') === 'town') return memberTownAction(user, formData)
	return settingsAction(request, user, formData)
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
	const town = actionData && 'townProblem' in actionData ? actionData : null
	return (
		<SettingsPage
			loaderData={loaderData}
			actionData={actionData && !('townProblem' in actionData) ? actionData : undefined}
			newsletter={
				<NewsletterSetting
					status={loaderData.newsletter}
					town={{ label: loaderData.town?.townLabel ?? null, problem: town?.townProblem ?? null, typed: town?.typedTown ?? null }}
				/>
			}
		/>
	)
}
