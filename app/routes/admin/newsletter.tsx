import { Mail, PenLine } from '#app/components/icons.tsx'
import { Form, Link } from 'react-router'
import type { Route } from './+types/newsletter'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Checkbox } from '#app/components/ui/checkbox.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Stat } from '#app/components/ui/stat.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { NewsletterNav } from '#app/features/newsletter/admin-nav.tsx'
import { useNewsletterLabels } from '#app/features/newsletter/labels.ts'
import { listCampaigns } from '#app/features/newsletter/campaigns.server.tsx'
import { preparesAnnouncements, setPreparesAnnouncements } from '#app/features/newsletter/prepared.server.ts'
import { countByStatus } from '#app/features/newsletter/subscribers.server.tsx'
import { DEFAULT_RADIUS_KM } from '#app/features/towns/rules.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { httpError } from '#app/platform/http-error.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { formatDateTime } from '#app/platform/time-zone.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('newsletter')

/*
 * The newsletter's home in the admin: how many people it reaches, every campaign with what became
 * of it (sent, failed, bounced, unsubscribed since), newest first, and the one setting about
 * campaigns, « Préparer une annonce à chaque nouveau concert publié » (its drafts land here).
 */
const SCREEN = '/dashboard/admin/newsletter'
export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const db = await getDb()
	const [counts, campaigns, prepare] = await Promise.all([countByStatus(db), listCampaigns(db), preparesAnnouncements(db)])
	return { title: pageTitle(getT()('newsletter.admin.metaTitle')), counts, campaigns, prepare, radiusKm: DEFAULT_RADIUS_KM }
}

/** The setting's form: on when its box is ticked, off otherwise (an unticked box sends nothing). */
export async function action({ request }: Route.ActionArgs) {
	await requireAdmin(request)
	const formData = await request.formData()
	if (formData.get('intent') !== 'prepare') throw httpError(400, { reason: 'unknown-intent' })
	const on = formData.get('prepareAnnouncements') === 'on'
	await setPreparesAnnouncements(await getDb(), on)
	// Keys written out whole, so that the i18n check sees each one.
	if (on) return redirectWithFlash(SCREEN, { type: 'success', key: 'newsletter.admin.flash.prepareOn' })
	return redirectWithFlash(SCREEN, { type: 'success', key: 'newsletter.admin.flash.prepareOff' })
}

const TONES: Record<string, BadgeTone> = { draft: 'neutral', scheduled: 'info', sending: 'accent', sent: 'success', cancelled: 'warning' }
const number = new Intl.NumberFormat('fr-FR')

export default function NewsletterAdmin({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { counts, campaigns, prepare, radiusKm } = loaderData
	const labels = useNewsletterLabels()
	const newCampaign = (
		<Link to="/dashboard/admin/newsletter/campaigns/new" className={buttonClasses('primary')}>
			<PenLine aria-hidden="true" />
			{t('newsletter.admin.newCampaign')}
		</Link>
	)
	return (
		<div className="flex flex-col gap-6">
			<PageHeader title={t('newsletter.admin.title')} description={t('newsletter.admin.description')} actions={newCampaign} />
			<NewsletterNav />
			<dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
				<Stat label={t('newsletter.admin.counts.active')} value={counts.active} />
				<Stat label={t('newsletter.admin.counts.pending')} value={counts.pending} />
				<Stat label={t('newsletter.admin.counts.unsubscribed')} value={counts.unsubscribed} />
				<Stat label={t('newsletter.admin.counts.bounced')} value={counts.bounced} />
			</dl>
			<section aria-labelledby="automatisation-titre" className="flex flex-col gap-3">
				<h2 id="automatisation-titre" className="text-lg font-semibold">
					{t('newsletter.prepared.title')}
				</h2>
				{/* Keyed by the stored value, so that the box shows it again after each save. */}
				<Form method="post" key={String(prepare)} className="flex flex-col items-start gap-2">
					<input type="hidden" name="intent" value="prepare" />
					<Checkbox
						name="prepareAnnouncements"
						defaultChecked={prepare}
						label={t('newsletter.prepared.label')}
						hint={t('newsletter.prepared.hint', { km: radiusKm })}
					/>
					<Button type="submit" variant="secondary">
						{t('newsletter.prepared.save')}
					</Button>
				</Form>
			</section>
			<section aria-labelledby="campagnes-titre" className="flex flex-col gap-3">
				<h2 id="campagnes-titre" className="text-lg font-semibold">
					{t('newsletter.admin.history')}
				</h2>
				{campaigns.length === 0 ? (
					<EmptyState
						icon={<Mail />}
						title={t('newsletter.admin.emptyTitle')}
						body={t('newsletter.admin.emptyBody')}
						action={newCampaign}
					/>
				) : (
					<Table label={t('newsletter.admin.history')}>
						<TableHead>
							<TableRow>
								<TableHeader>{t('newsletter.admin.columns.subject')}</TableHeader>
								<TableHeader>{t('newsletter.admin.columns.status')}</TableHeader>
								<TableHeader>{t('newsletter.admin.columns.date')}</TableHeader>
								<TableHeader numeric>{t('newsletter.admin.columns.sent')}</TableHeader>
								<TableHeader numeric>{t('newsletter.admin.columns.queued')}</TableHeader>
								<TableHeader numeric>{t('newsletter.admin.columns.failed')}</TableHeader>
								<TableHeader numeric>{t('newsletter.admin.columns.bounced')}</TableHeader>
								<TableHeader numeric>{t('newsletter.admin.columns.unsubscribed')}</TableHeader>
							</TableRow>
						</TableHead>
						<TableBody>
							{campaigns.map((c) => (
								<TableRow key={c.id}>
									<TableCell wrap>
										<Link to={`/dashboard/admin/newsletter/campaigns/${c.id}`} className={linkClasses()}>
											{c.subject || t('newsletter.admin.compose.untitled')}
										</Link>
										{c.prepared ? (
											<>
												{' '}
												<Badge tone="info">{t('newsletter.prepared.badge')}</Badge>
											</>
										) : null}
									</TableCell>
									<TableCell>
										<Badge tone={TONES[c.status]}>{labels.campaign(c.status)}</Badge>
									</TableCell>
									<TableCell>{formatDateTime(c.finishedAt ?? c.startedAt ?? c.scheduledAt ?? c.updatedAt)}</TableCell>
									<TableCell numeric>{number.format(c.sent)}</TableCell>
									<TableCell numeric>{number.format(c.queued)}</TableCell>
									<TableCell numeric>{number.format(c.failed)}</TableCell>
									<TableCell numeric>{number.format(c.bounced)}</TableCell>
									<TableCell numeric>{number.format(c.unsubscribedSince)}</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				)}
			</section>
		</div>
	)
}
