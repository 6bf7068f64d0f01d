import { ArrowLeft, FileUp } from '#app/components/icons.tsx'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/code-import'
import { Button } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { getCampaign } from '#app/features/codes/campaigns.server.ts'
import { IMPORTED_MAX_LENGTH, IMPORTED_MIN_LENGTH } from '#app/features/codes/code-format.ts'
import { previewImport, startImport } from '#app/features/codes/import.server.ts'
import { IMPORT_MAX_LINES } from '#app/features/codes/rules.ts'
import { readBodyWithin } from '#app/features/media/upload.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.codes')

/*
 * Import existing codes (a pressing plant's list) into a campaign: the CSV is read and previewed
 * (codes kept, lines refused and why); « Importer » stores the kept codes through the batch job.
 * The confirmation sends the file again, so nothing is kept between the two steps.
 */
const MAX_BYTES = 8 * 1024 * 1024
const SHOWN_REJECTS = 200

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const found = await getCampaign((await getPlatform()).database.db, params.campaignId)
	if (!found) throw data(null, { status: 404 })
	return { title: pageTitle(getT()('admin.codes.import.metaTitle')), campaign: { id: found.campaign.id, name: found.campaign.name } }
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const { database, jobs, storage } = await getPlatform()
	const t = getT()
	if (!(await getCampaign(database.db, params.campaignId))) throw data(null, { status: 404 })
	const type = request.headers.get('content-type') ?? ''
	const refuse = (message: string, status = 400) => data({ error: message, preview: null }, { status })
	if (!type.toLowerCase().startsWith('multipart/form-data')) return refuse(t('admin.codes.import.noFile'))
	const body = await readBodyWithin(request, MAX_BYTES)
	if (!body.ok) return refuse(t('admin.codes.import.tooLarge'), 413)
	let form: FormData
	try {
		form = await new Response(body.bytes, { headers: { 'Content-Type': type } }).formData()
	} catch {
		return refuse(t('admin.codes.import.noFile'))
	}
	const file = form.get('file')
	if (!(file instanceof File) || file.size === 0) return refuse(t('admin.codes.import.noFile'))
	const preview = await previewImport(database.db, new Uint8Array(await file.arrayBuffer()))
	if (preview.unreadable) return refuse(t('admin.codes.import.unreadable'))
	if (preview.tooMany) return refuse(t('admin.codes.import.tooMany', { max: IMPORT_MAX_LINES.toLocaleString('fr-FR') }))
	if (form.get('intent') === 'confirm' && preview.accepted.length > 0) {
		const label =
			String(form.get('label') ?? '')
				.trim()
				.slice(0, 120) || file.name.slice(0, 120)
		await startImport(database.db, jobs, storage, { campaignId: params.campaignId, codes: preview.accepted, label, userId: admin.id })
		return redirectWithFlash(`/dashboard/admin/codes/${params.campaignId}#lots`, { type: 'success', key: 'admin.codes.flash.importing' })
	}
	return data({
		error: null,
		preview: {
			accepted: preview.accepted.length,
			sample: preview.accepted.slice(0, 5),
			rejected: preview.rejected.slice(0, SHOWN_REJECTS),
			rejectedCount: preview.rejected.length,
		},
	})
}

export default function CodeImport({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const busy = navigation.state !== 'idle'
	const preview = actionData?.preview
	const reasons: Record<string, string> = {
		format: t('admin.codes.import.reasons.format', { min: IMPORTED_MIN_LENGTH, max: IMPORTED_MAX_LENGTH }),
		duplicate: t('admin.codes.import.reasons.duplicate'),
		exists: t('admin.codes.import.reasons.exists'),
	}
	return (
		<>
			<Link
				to={`/dashboard/admin/codes/${loaderData.campaign.id}`}
				className={linkClasses('quiet', 'inline-flex items-center gap-1.5 text-sm')}
			>
				<ArrowLeft aria-hidden="true" className="size-4" />
				{loaderData.campaign.name}
			</Link>
			<PageHeader
				className="mt-3"
				title={t('admin.codes.import.title')}
				description={t('admin.codes.import.intro', { max: IMPORT_MAX_LINES.toLocaleString('fr-FR') })}
			/>
			<Form
				method="post"
				encType="multipart/form-data"
				className="mt-6 flex max-w-2xl flex-col gap-4 rounded-card border border-line bg-surface p-5"
			>
				<div className="flex flex-col gap-1.5">
					<label htmlFor="import-fichier" className="text-sm font-semibold">
						{t('admin.codes.import.file')}
					</label>
					<input
						id="import-fichier"
						name="file"
						type="file"
						accept=".csv,.txt,text/csv,text/plain"
						required
						aria-describedby="import-aide"
						className="text-sm file:mr-3 file:rounded-control file:border file:border-line-strong file:bg-transparent file:px-3 file:py-2 file:text-fg"
					/>
					<p id="import-aide" className="text-sm text-muted">
						{t('admin.codes.import.fileHint')}
					</p>
				</div>
				<div className="flex flex-col gap-1.5">
					<label htmlFor="import-libelle" className="text-sm font-semibold">
						{t('admin.codes.batches.label')} <span className="font-normal text-muted">{t('admin.codes.form.optional')}</span>
					</label>
					<input
						id="import-libelle"
						name="label"
						maxLength={120}
						className="min-h-11 rounded-control border border-line-strong bg-field px-3"
					/>
				</div>
				{actionData?.error ? (
					<p role="alert" className="font-medium text-danger">
						{actionData.error}
					</p>
				) : null}
				<div className="flex flex-wrap gap-2">
					<Button type="submit" name="intent" value="preview" variant="secondary" disabled={busy}>
						{t('admin.codes.import.preview')}
					</Button>
					{preview && preview.accepted > 0 ? (
						<Button type="submit" name="intent" value="confirm" disabled={busy}>
							<FileUp aria-hidden="true" />
							{t('admin.codes.import.confirm', { n: preview.accepted.toLocaleString('fr-FR') })}
						</Button>
					) : null}
				</div>
				{preview ? <p className="text-sm text-muted">{t('admin.codes.import.confirmHint')}</p> : null}
			</Form>
			{preview ? (
				<section aria-labelledby="apercu" className="mt-8" aria-live="polite">
					<h2 id="apercu" className="text-lg font-semibold">
						{t('admin.codes.import.summary', {
							accepted: preview.accepted.toLocaleString('fr-FR'),
							rejected: preview.rejectedCount.toLocaleString('fr-FR'),
						})}
					</h2>
					{preview.sample.length > 0 ? (
						<p className="mt-2 font-mono text-sm text-muted">
							{preview.sample.join(' · ')}
							{preview.accepted > 5 ? ' …' : ''}
						</p>
					) : null}
					{preview.rejected.length > 0 ? (
						<Table label={t('admin.codes.import.rejectedLabel')} className="mt-4">
							<TableHead>
								<TableRow>
									<TableHeader numeric>{t('admin.codes.import.line')}</TableHeader>
									<TableHeader>{t('admin.codes.import.value')}</TableHeader>
									<TableHeader>{t('admin.codes.import.reason')}</TableHeader>
								</TableRow>
							</TableHead>
							<TableBody>
								{preview.rejected.map((r) => (
									<TableRow key={`${r.line}-${r.value}`}>
										<TableCell numeric>{r.line}</TableCell>
										<TableCell className="font-mono" wrap>
											{r.value || '—'}
										</TableCell>
										<TableCell wrap>{reasons[r.reason]}</TableCell>
									</TableRow>
								))}
							</TableBody>
						</Table>
					) : null}
				</section>
			) : null}
		</>
	)
}
