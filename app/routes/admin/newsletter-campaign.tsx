import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, Link, redirect, useFetcher, useNavigation, useRevalidator } from 'react-router'
import type { z } from 'zod'
import type { Route } from './+types/newsletter-campaign'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { formatDateTime, instantToParisWallClock, parisWallClockToInstant } from '#app/platform/time-zone.ts'
import { CampaignPreview } from '#app/features/newsletter/campaign-preview.tsx'
import { audienceView, composeStart } from '#app/features/newsletter/announce.server.ts'
import { AudiencePanel } from '#app/features/newsletter/audience-panel.tsx'
import { audienceToSave } from '#app/features/newsletter/audience.server.ts'
import { CampaignProgress } from '#app/features/newsletter/campaign-progress.tsx'
import { NoRelay } from '#app/features/newsletter/no-relay.tsx'
import { useNewsletterLabels } from '#app/features/newsletter/labels.ts'
import {
	cancelCampaign,
	deleteDraft,
	getCampaign,
	previewCampaign,
	saveCampaign,
	scheduleCampaign,
	sendTestCampaign,
	unscheduleCampaign,
} from '#app/features/newsletter/campaigns.server.tsx'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'
import { CampaignSchema } from '#app/features/newsletter/forms.ts'
import { campaignProgress } from '#app/features/newsletter/sender.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('newsletter', 'auth.validation')

/*
 * One campaign: write it (subject, preview text, Markdown), see it as the mail at desktop and phone
 * widths, send a test to yourself, then send now or at a set time; while it goes out, the progress
 * is live; it can be cancelled before or during the send. `new` is a campaign not stored yet.
 */
const LIST = '/dashboard/admin/newsletter'
const INTENTS = ['save', 'test', 'send', 'schedule', 'unschedule', 'cancel', 'delete'] as const

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const admin = await requireAdmin(request)
	const ctx = await newsletterContext()
	const campaign = params.campaignId === 'new' ? null : await getCampaign(ctx.db, params.campaignId)
	if (params.campaignId !== 'new' && !campaign) throw redirect(LIST)
	const { draft, announced } = await composeStart(ctx.db, ctx.env, campaign ?? null, new URL(request.url).searchParams.get('event'))
	return {
		title: pageTitle(getT()('newsletter.admin.compose.metaTitle')),
		id: campaign?.id ?? null,
		status: campaign?.status ?? 'draft',
		draft,
		scheduledAt: campaign?.scheduledAt ? instantToParisWallClock(campaign.scheduledAt) : '',
		scheduledFor:
			campaign?.scheduledAt && campaign.scheduledAt.getTime() > Date.now() + 60_000 ? formatDateTime(campaign.scheduledAt) : null,
		progress: campaign && campaign.status !== 'draft' ? await campaignProgress(ctx.db, campaign.id) : null,
		previewHtml: await previewCampaign(ctx, draft),
		adminEmail: admin.email,
		smtpConfigured: Boolean((await getPlatform()).env.SMTP_URL),
		constraint: getZodConstraint(CampaignSchema),
		audience: await audienceView(ctx.db, { stored: campaign?.audience ?? null, eventId: announced }),
		recipients: campaign?.recipients ?? null,
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const formData = await request.formData()
	const intent = formData.get('intent') as (typeof INTENTS)[number]
	if (!INTENTS.includes(intent)) throw data(null, { status: 400 })
	const ctx = await newsletterContext()
	const { jobs, realtime } = await getPlatform()
	const id = params.campaignId === 'new' ? undefined : params.campaignId
	const here = (campaignId: string) => `${LIST}/campaigns/${campaignId}`

	if (intent === 'cancel' || intent === 'unschedule' || intent === 'delete') {
		if (!id) throw data(null, { status: 400 })
		if (intent === 'delete') {
			if (await deleteDraft(ctx.db, id)) return redirectWithFlash(LIST, { type: 'success', key: 'newsletter.admin.flash.deleted' })
			return redirectWithFlash(here(id), { type: 'info', key: 'newsletter.admin.flash.notDraft' })
		}
		if (intent === 'cancel' && (await cancelCampaign(ctx.db, realtime, id)))
			return redirectWithFlash(here(id), { type: 'success', key: 'newsletter.admin.flash.cancel' })
		if (intent === 'unschedule' && (await unscheduleCampaign(ctx.db, id)))
			return redirectWithFlash(here(id), { type: 'success', key: 'newsletter.admin.flash.unschedule' })
		return redirectWithFlash(here(id), { type: 'info', key: 'newsletter.admin.flash.tooLate' })
	}

	const submission = parseWithZod(formData, { schema: CampaignSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	let at: Date | undefined
	if (intent === 'schedule') {
		at = parisWallClockToInstant(String(formData.get('scheduledAt') ?? '')) ?? undefined
		if (!at || at.getTime() < Date.now() - 60_000) {
			return data({ result: submission.reply({ formErrors: [getT()('newsletter.admin.compose.badDate')] }) }, { status: 400 })
		}
	}
	// No relay: nothing would leave (the mails would wait in the outbox while the screen said
	// « L’envoi démarre… »). Refused next to the button; nothing is saved or queued, the text stays.
	if ((intent === 'send' || intent === 'schedule' || intent === 'test') && !(await getPlatform()).env.SMTP_URL) {
		return data({ result: submission.reply(), noRelay: intent }, { status: 400 })
	}
	if (intent === 'test') {
		const sent = await sendTestCampaign(ctx, submission.value, admin.email)
		return data({ result: submission.reply(), tested: sent.ok ? admin.email : null })
	}
	const audience = await audienceToSave(ctx.db, formData)
	if ('error' in audience) return data({ result: submission.reply(), audienceError: audience.error }, { status: 400 })
	const saved = await saveCampaign(ctx.db, { ...submission.value, audience: audience.rule, id, createdBy: admin.id })
	// Already sending or sent (a double-clicked « Envoyer »): the campaign is left as it is.
	if (!saved) return redirectWithFlash(id ? here(id) : LIST, { type: 'info', key: 'newsletter.admin.flash.tooLate' })
	if (intent === 'save') return redirectWithFlash(here(saved.id), { type: 'success', key: 'newsletter.admin.flash.saved' })
	if (!(await scheduleCampaign(ctx.db, jobs, realtime, saved.id, at)))
		return redirectWithFlash(here(saved.id), { type: 'info', key: 'newsletter.admin.flash.tooLate' })
	if (intent === 'send') return redirectWithFlash(here(saved.id), { type: 'success', key: 'newsletter.admin.flash.sending' })
	return redirectWithFlash(here(saved.id), { type: 'success', key: 'newsletter.admin.flash.scheduled' })
}

export default function CampaignEditor({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const labels = useNewsletterLabels()
	const revalidator = useRevalidator()
	const preview = useFetcher<{ html: string }>({ key: 'campaign-preview' })
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	const editable = loaderData.status === 'draft' || loaderData.status === 'scheduled'
	const [form, fields] = useForm<z.input<typeof CampaignSchema>>({
		id: `campaign-${loaderData.id ?? 'new'}`,
		lastResult: actionData?.result,
		constraint: loaderData.constraint,
		defaultValue: loaderData.draft,
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CampaignSchema }),
	})
	useEffect(() => () => clearTimeout(timer.current), [])
	// Each change is shown in the preview a moment after typing stops.
	const refreshPreview = (event: React.FormEvent<HTMLFormElement>) => {
		const data = new FormData(event.currentTarget)
		clearTimeout(timer.current)
		timer.current = setTimeout(() => {
			const body = new FormData()
			for (const name of ['subject', 'preheader', 'body']) body.set(name, String(data.get(name) ?? ''))
			void preview.submit(body, { method: 'post', action: `${LIST}/preview` })
		}, 350)
	}
	const busy = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
	const noRelay = actionData && 'noRelay' in actionData ? actionData.noRelay : null
	return (
		<div className="flex flex-col gap-6">
			<PageHeader
				eyebrow={
					<Link to={LIST} className={linkClasses()}>
						{t('newsletter.admin.title')}
					</Link>
				}
				title={loaderData.id ? loaderData.draft.subject || t('newsletter.admin.compose.untitled') : t('newsletter.admin.compose.new')}
				actions={
					<Badge tone={loaderData.status === 'sent' ? 'success' : loaderData.status === 'sending' ? 'accent' : 'neutral'}>
						{labels.campaign(loaderData.status)}
					</Badge>
				}
			/>
			{loaderData.smtpConfigured ? null : (
				<p role="status" className="rounded-control border border-warning/40 bg-warning/10 px-4 py-3 text-sm">
					{t('newsletter.admin.compose.noSmtp')}
				</p>
			)}
			{loaderData.progress ? (
				<Card as="section" aria-labelledby="envoi-titre">
					<CardTitle id="envoi-titre" className="mb-4">
						{t('newsletter.admin.progress.title')}
					</CardTitle>
					<CampaignProgress
						campaignId={loaderData.id!}
						initial={loaderData.progress}
						scheduledFor={loaderData.scheduledFor}
						onStatusChange={() => void revalidator.revalidate()}
					/>
					{loaderData.status === 'sending' || loaderData.status === 'scheduled' ? (
						<Form method="post" className="mt-5 flex flex-wrap gap-3">
							{loaderData.status === 'scheduled' ? (
								<Button type="submit" name="intent" value="unschedule" variant="secondary" disabled={busy('unschedule')}>
									{t('newsletter.admin.compose.unschedule')}
								</Button>
							) : null}
							<Button type="submit" name="intent" value="cancel" variant="danger" disabled={busy('cancel')}>
								{t('newsletter.admin.compose.cancel')}
							</Button>
						</Form>
					) : null}
				</Card>
			) : null}
			<div className="grid grid-cols-1 gap-8 xl:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
				<Form method="post" className="flex flex-col gap-5" onChange={refreshPreview} {...getFormProps(form)}>
					<fieldset disabled={!editable} className="flex min-w-0 flex-col gap-5">
						<FormError id={form.errorId} errors={form.errors} />
						{actionData && 'tested' in actionData && actionData.tested ? (
							<p role="status" className="rounded-control border border-success/40 bg-success/10 px-4 py-3 text-sm">
								{t('newsletter.admin.compose.tested', { email: actionData.tested })}
							</p>
						) : null}
						<Field label={t('newsletter.admin.compose.subject')} errors={fields.subject.errors}>
							{(control) => <Input {...getInputProps(fields.subject, { type: 'text' })} {...control} />}
						</Field>
						<Field
							label={t('newsletter.admin.compose.preheader')}
							hint={t('newsletter.admin.compose.preheaderHint')}
							optional={t('newsletter.admin.compose.optional')}
							errors={fields.preheader.errors}
						>
							{(control) => <Input {...getInputProps(fields.preheader, { type: 'text' })} {...control} />}
						</Field>
						<Field label={t('newsletter.admin.compose.body')} hint={t('newsletter.admin.compose.bodyHint')} errors={fields.body.errors}>
							{(control) => <Textarea {...getTextareaProps(fields.body)} {...control} rows={16} className="font-mono text-sm" />}
						</Field>
						{loaderData.audience ? (
							<AudiencePanel
								view={loaderData.audience}
								error={actionData && 'audienceError' in actionData ? (actionData.audienceError as string) : null}
								sentTo={editable ? null : loaderData.recipients}
							/>
						) : null}
						<div className="flex flex-wrap gap-3">
							<Button type="submit" name="intent" value="save" variant="secondary" disabled={busy('save')}>
								{t('newsletter.admin.compose.save')}
							</Button>
							<Button
								type="submit"
								name="intent"
								value="test"
								variant="secondary"
								disabled={busy('test')}
								aria-describedby={noRelay === 'test' ? 'relais-test' : undefined}
							>
								{t('newsletter.admin.compose.test', { email: loaderData.adminEmail })}
							</Button>
							{noRelay === 'test' ? <NoRelay id="relais-test" intent="test" /> : null}
						</div>
						<div className="flex flex-col gap-4 rounded-card border border-line p-4">
							<Button
								type="submit"
								name="intent"
								value="send"
								size="lg"
								disabled={navigation.state !== 'idle'}
								aria-describedby={noRelay === 'send' ? 'relais-envoi' : undefined}
							>
								{loaderData.audience?.placed ? t('newsletter.announce.sendNow') : t('newsletter.admin.compose.sendNow')}
							</Button>
							{noRelay === 'send' ? <NoRelay id="relais-envoi" intent="send" /> : null}
							<div className="flex flex-wrap items-end gap-3">
								<Field label={t('newsletter.admin.compose.scheduleAt')} className="min-w-56 flex-1">
									{(control) => <Input {...control} type="datetime-local" name="scheduledAt" defaultValue={loaderData.scheduledAt} />}
								</Field>
								<Button
									type="submit"
									name="intent"
									value="schedule"
									variant="secondary"
									disabled={busy('schedule')}
									aria-describedby={noRelay === 'schedule' ? 'relais-programmation' : undefined}
								>
									{t('newsletter.admin.compose.schedule')}
								</Button>
							</div>
							{noRelay === 'schedule' ? <NoRelay id="relais-programmation" intent="schedule" /> : null}
						</div>
					</fieldset>
					{loaderData.id && loaderData.status === 'draft' ? (
						<Button type="submit" name="intent" value="delete" variant="ghost" formNoValidate className="self-start text-danger">
							{t('newsletter.admin.compose.delete')}
						</Button>
					) : null}
				</Form>
				<CampaignPreview html={preview.data?.html ?? loaderData.previewHtml} loading={preview.state !== 'idle'} />
			</div>
		</div>
	)
}
