import { data } from 'react-router'
import type { Route } from './+types/newsletter-preview'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { previewCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'
import { BODY_MAX, PREHEADER_MAX, SUBJECT_MAX } from '#app/features/newsletter/rules.ts'

/** The compose screen's live preview (POST only): the draft as the mail's own template renders it. */
export async function action({ request }: Route.ActionArgs) {
	await requireAdmin(request)
	const form = await request.formData()
	const field = (name: string, max: number) => String(form.get(name) ?? '').slice(0, max)
	const html = await previewCampaign(await newsletterContext(), {
		subject: field('subject', SUBJECT_MAX),
		preheader: field('preheader', PREHEADER_MAX),
		body: field('body', BODY_MAX),
	})
	return { html }
}

export function loader() {
	throw data(null, { status: 405 })
}
