import { ArrowLeft } from '#app/components/icons.tsx'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/code-detail'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { revokeCode } from '#app/features/codes/batches.server.ts'
import { findCodeDetail } from '#app/features/codes/campaigns.server.ts'
import { formatCode } from '#app/features/codes/code-format.ts'
import { formatDateTime } from '#app/platform/time-zone.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.codes')

/** One code: its state, its campaign and batch, who redeemed it and when; revoke it. */

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const detail = await findCodeDetail(await getDb(), params.code)
	if (!detail) throw data(null, { status: 404 })
	return { title: pageTitle(formatCode(detail.code)), detail: { ...detail, printed: formatCode(detail.code) } }
}

export async function action({ request, params }: Route.ActionArgs) {
	await requireAdmin(request)
	const detail = await findCodeDetail(await getDb(), params.code)
	if (!detail) throw data(null, { status: 404 })
	const form = await request.formData()
	if (form.get('intent') !== 'revoke') throw data(null, { status: 400 })
	await revokeCode(await getDb(), detail.code)
	return redirectWithFlash(`/dashboard/admin/codes/code/${detail.code}`, { type: 'success', key: 'admin.codes.flash.codeRevoked' })
}

export default function CodeDetail({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const d = loaderData.detail
	const revoked = Boolean(d.revokedAt ?? d.batchRevokedAt)
	const state = revoked ? 'revoked' : d.uses >= d.maxUses ? 'used' : d.uses > 0 ? 'partly' : 'unused'
	const tones = { revoked: 'danger', used: 'neutral', partly: 'info', unused: 'success' } as const
	const labels = {
		revoked: t('admin.codes.code.revoked'),
		used: t('admin.codes.code.used'),
		partly: t('admin.codes.code.partly'),
		unused: t('admin.codes.code.unused'),
	}
	return (
		<>
			<Link to={`/dashboard/admin/codes/${d.campaignId}`} className={linkClasses('quiet', 'inline-flex items-center gap-1.5 text-sm')}>
				<ArrowLeft aria-hidden="true" className="size-4" />
				{d.campaignName}
			</Link>
			<PageHeader className="mt-3" eyebrow={t('admin.codes.code.eyebrow')} title={<span className="font-mono">{d.printed}</span>} />
			<dl className="mt-6 grid max-w-2xl gap-x-6 gap-y-3 rounded-card border border-line bg-surface p-5 sm:grid-cols-[12rem_1fr]">
				<dt className="text-muted">{t('admin.codes.code.state')}</dt>
				<dd>
					<Badge tone={tones[state]}>{labels[state]}</Badge>
				</dd>
				<dt className="text-muted">{t('admin.codes.code.uses')}</dt>
				<dd>{t('admin.codes.code.usesValue', { uses: d.uses, max: d.maxUses })}</dd>
				<dt className="text-muted">{t('admin.codes.code.batch')}</dt>
				<dd>{d.batchLabel || '—'}</dd>
				<dt className="text-muted">{t('admin.codes.code.createdAt')}</dt>
				<dd>{formatDateTime(d.createdAt)}</dd>
			</dl>
			<section aria-labelledby="utilisations" className="mt-8 max-w-2xl">
				<h2 id="utilisations" className="text-lg font-semibold">
					{t('admin.codes.code.redemptions')}
				</h2>
				{d.redemptions.length === 0 ? (
					<p className="mt-2 text-muted">{t('admin.codes.code.none')}</p>
				) : (
					<ul className="mt-3 flex flex-col divide-y divide-line rounded-card border border-line">
						{d.redemptions.map((r, i) => (
							<li key={i} className="flex flex-wrap justify-between gap-2 px-4 py-3">
								<span>
									{r.status === 'reserved'
										? t('admin.codes.code.reserved')
										: r.userName
											? `${r.userName} (${r.userEmail})`
											: t('admin.codes.code.deletedMember')}
								</span>
								<span className="text-muted">
									{r.status === 'reserved' && r.reservedUntil
										? t('admin.codes.code.reservedUntil', { date: formatDateTime(r.reservedUntil) })
										: r.grantedAt
											? formatDateTime(r.grantedAt)
											: ''}
								</span>
							</li>
						))}
					</ul>
				)}
			</section>
			{!d.revokedAt ? (
				<Form method="post" className="mt-8">
					<input type="hidden" name="intent" value="revoke" />
					<Button type="submit" variant="danger">
						{t('admin.codes.code.revoke')}
					</Button>
					<p className="mt-2 text-sm text-muted">{t('admin.codes.code.revokeHint')}</p>
				</Form>
			) : null}
		</>
	)
}
