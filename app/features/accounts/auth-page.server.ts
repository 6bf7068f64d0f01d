import { getZodConstraint } from '@conform-to/zod/v4'
import type { ZodType } from 'zod'
import { pageTitle } from '#app/features/site/band.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import type { TFunction } from '#app/i18n/translate.ts'
import { safeRedirect } from './redirect.ts'
import { requireAnonymous } from './session.server.ts'

/* What the sign-in and sign-up pages load alike: the same guard, head and form constraints. */

const HEADS = {
	signin: (t: TFunction) => ({ title: t('auth.signin.metaTitle'), description: t('auth.signin.intro') }),
	signup: (t: TFunction) => ({ title: t('auth.signup.metaTitle'), description: t('auth.signup.intro') }),
}

/**
 * For a visitor who is not signed in (a member is sent on, to `redirectTo` or the dashboard): the
 * page's title and introduction, the same-site address to go to afterwards, and the constraints
 * the browser applies to the form.
 */
export async function authPageData(request: Request, page: keyof typeof HEADS, schema: ZodType) {
	await requireAnonymous(request)
	const head = HEADS[page](getT())
	const redirectTo = new URL(request.url).searchParams.get('redirectTo')
	return {
		title: pageTitle(head.title),
		description: head.description,
		redirectTo: redirectTo ? safeRedirect(redirectTo) : null,
		constraint: getZodConstraint(schema),
	}
}
