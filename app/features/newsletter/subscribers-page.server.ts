import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { addSubscriber, deleteSubscriberById, listSubscribers, parseStatus } from './admin.server.ts'
import { newsletterContext } from './public.server.ts'
import { parseSegment, segmentQuery } from './segment.server.ts'
import { AddSubscriberSchema } from './forms.ts'
import { SUBSCRIBERS_PATH as HERE } from './admin-nav.tsx'

/*
 * The admin's subscriber list, /dashboard/admin/newsletter/subscribers: what it shows (a search, a
 * status filter, pages of 50) and what its forms do (delete one address; add one, pending with the
 * confirmation mail unless the admin certifies the consent). Admins only, checked in both.
 */

export async function subscribersPageData(request: Request) {
	await requireAdmin(request)
	const params = new URL(request.url).searchParams
	const q = (params.get('q') ?? '').trim().slice(0, 200)
	const status = parseStatus(params.get('status'))
	const page = Number.parseInt(params.get('page') ?? '1', 10) || 1
	const { segment, typedTown, townProblem, typedKm, radiusProblem } = parseSegment(params)
	const list = await listSubscribers((await newsletterContext()).db, { q, status, page, segment })
	return {
		title: pageTitle(getT()('newsletter.admin.subscribers.metaTitle')),
		q,
		status,
		segment,
		typedTown,
		townProblem,
		typedKm,
		radiusProblem,
		/** The filters as a query string (no page): the pages' links and the export's. */
		filters: segmentQuery(segment, { q, status }).toString(),
		list,
		constraint: getZodConstraint(AddSubscriberSchema),
	}
}

export async function subscribersAction(request: Request) {
	await requireAdmin(request)
	const formData = await request.formData()
	const ctx = await newsletterContext()
	if (formData.get('intent') === 'delete') {
		if (await deleteSubscriberById(ctx.db, String(formData.get('id') ?? '')))
			return redirectWithFlash(HERE, { type: 'success', key: 'newsletter.admin.flash.subscriberDeleted' })
		return redirectWithFlash(HERE, { type: 'info', key: 'newsletter.admin.flash.subscriberGone' })
	}
	if (formData.get('intent') !== 'add') throw data(null, { status: 400 })
	const submission = parseWithZod(formData, { schema: AddSubscriberSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const { email, certified, consentNote } = submission.value
	if (!(await addSubscriber(ctx, { email, certified: Boolean(certified), consentNote }))) {
		return data(
			{ result: submission.reply({ fieldErrors: { email: [getT()('newsletter.admin.subscribers.alreadyListed')] } }) },
			{ status: 400 },
		)
	}
	// Each key written out whole, so that the translation check sees both.
	return certified
		? redirectWithFlash(HERE, { type: 'success', key: 'newsletter.admin.flash.subscriberAdded', values: { email } })
		: redirectWithFlash(HERE, { type: 'success', key: 'newsletter.admin.flash.subscriberInvited', values: { email } })
}
