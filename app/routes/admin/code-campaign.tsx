import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft } from '#app/components/icons.tsx'
import { data, Link } from 'react-router'
import type { Route } from './+types/code-campaign'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { BatchPanel } from '#app/features/codes/batch-panel.tsx'
import { createBatch, revokeBatch } from '#app/features/codes/batches.server.ts'
import { BatchSchema, CampaignSchema, toCampaignValues } from '#app/features/codes/forms.ts'
import { CampaignFormView } from '#app/features/codes/campaign-form-view.tsx'
import { createCampaign, getCampaign, updateCampaign } from '#app/features/codes/campaigns.server.ts'
import { FilesPanel } from '#app/features/codes/files-panel.tsx'
import { instantToParisWallClock } from '#app/platform/time-zone.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.codes', 'codes.unlocked')

/*
 * One campaign: its form (`new` for a campaign not stored yet), the files it unlocks, and its
 * batches — generate (a background job with live progress), import, export, print, revoke.
 */
const BASE = '/dashboard/admin/codes'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const t = getT()
	const constraint = getZodConstraint(CampaignSchema)
	const batchConstraint = getZodConstraint(BatchSchema)
	if (params.campaignId === 'new') {
		return { title: pageTitle(t('admin.codes.newTitle')), found: null, constraint, batchConstraint, defaultValue: { usesPerCode: '1' } }
	}
	const found = await getCampaign((await getPlatform()).database.db, params.campaignId)
	if (!found) throw data(null, { status: 404 })
	const c = found.campaign
	return {
		title: pageTitle(c.name),
		found,
		constraint,
		batchConstraint,
		defaultValue: {
			name: c.name,
			description: c.description,
			message: c.message,
			links: c.links.map((l) => `${l.label} | ${l.url}`).join('\n'),
			startsAt: c.startsAt ? instantToParisWallClock(c.startsAt) : '',
			endsAt: c.endsAt ? instantToParisWallClock(c.endsAt) : '',
			usesPerCode: String(c.usesPerCode),
			paused: c.status === 'paused',
		},
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const { database, jobs } = await getPlatform()
	const db = database.db
	const formData = await request.formData()
	const intent = formData.get('intent')
	const isNew = params.campaignId === 'new'
	if (!isNew && !(await getCampaign(db, params.campaignId))) throw data(null, { status: 404 })
	const here = `${BASE}/${params.campaignId}`

	if (intent === 'save') {
		const submission = parseWithZod(formData, { schema: CampaignSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
		const values = toCampaignValues(submission.value)
		if (isNew) {
			const id = await createCampaign(db, values, admin.id)
			return redirectWithFlash(`${BASE}/${id}`, { type: 'success', key: 'admin.codes.flash.created' })
		}
		await updateCampaign(db, params.campaignId, values)
		return redirectWithFlash(here, { type: 'success', key: 'admin.codes.flash.saved' })
	}
	if (isNew) throw data(null, { status: 400 })
	if (intent === 'generate') {
		const submission = parseWithZod(formData, { schema: BatchSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
		await createBatch(db, jobs, {
			campaignId: params.campaignId,
			count: submission.value.count,
			label: submission.value.label,
			userId: admin.id,
		})
		return redirectWithFlash(`${here}#lots`, { type: 'success', key: 'admin.codes.flash.generating' })
	}
	if (intent === 'revoke-batch') {
		const batchId = String(formData.get('batchId') ?? '')
		const found = await getCampaign(db, params.campaignId)
		if (!found?.batches.some((b) => b.id === batchId)) throw data(null, { status: 404 })
		await revokeBatch(db, batchId)
		return redirectWithFlash(`${here}#lots`, { type: 'success', key: 'admin.codes.flash.batchRevoked' })
	}
	throw data(null, { status: 400 })
}

export default function CodeCampaign({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { found } = loaderData
	const result = actionData && 'result' in actionData ? actionData.result : undefined
	return (
		<>
			<Link to={BASE} className={linkClasses('quiet', 'inline-flex items-center gap-1.5 text-sm')}>
				<ArrowLeft aria-hidden="true" className="size-4" />
				{t('admin.codes.back')}
			</Link>
			<PageHeader
				className="mt-3"
				title={found ? found.campaign.name : t('admin.codes.newTitle')}
				description={found ? found.campaign.description || undefined : t('admin.codes.newIntro')}
			/>
			<div className="mt-8 grid gap-10 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
				<section aria-labelledby="campagne" className="rounded-card border border-line bg-surface p-5 sm:p-6">
					<h2 id="campagne" className="mb-5 text-lg font-semibold">
						{t('admin.codes.form.title')}
					</h2>
					<CampaignFormView
						isNew={!found}
						defaultValue={loaderData.defaultValue}
						constraint={loaderData.constraint}
						result={actionData?.intent === 'save' ? result : undefined}
					/>
				</section>
				{found ? (
					<div className="flex flex-col gap-10">
						<FilesPanel campaignId={found.campaign.id} files={found.files} />
						<BatchPanel
							campaignId={found.campaign.id}
							batches={found.batches}
							constraint={loaderData.batchConstraint}
							result={actionData?.intent === 'generate' ? result : undefined}
						/>
					</div>
				) : null}
			</div>
		</>
	)
}
