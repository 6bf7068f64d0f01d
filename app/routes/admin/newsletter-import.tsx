import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import type { z } from 'zod'
import type { Route } from './+types/newsletter-import'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { previewImport } from '#app/features/newsletter/admin.server.ts'
import { NewsletterNav } from '#app/features/newsletter/admin-nav.tsx'
import { ImportProgress } from '#app/features/newsletter/import-progress.tsx'
import { confirmImport, importProgress } from '#app/features/newsletter/imports.server.ts'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'
import { ImportSchema } from '#app/features/newsletter/forms.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { uploadedForm } from '#app/platform/form-guard.server.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('newsletter', 'auth.validation')

/*
 * Importing subscribers from a CSV file: the file and where these people consented, then a preview
 * (how many new addresses, duplicates, already listed, each rejected line and why), then the import,
 * written by a background job: the confirmation answers at once with this page's `?import=<id>`,
 * where the job's progress shows live (features/newsletter/imports.server.ts).
 */
const MAX_BYTES = 20 * 1024 * 1024
const number = new Intl.NumberFormat('fr-FR')

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const importId = new URL(request.url).searchParams.get('import')
	const { db } = await newsletterContext()
	const progress = importId ? await importProgress(db, importId) : null
	if (importId && (!progress || progress.status === 'preview')) throw data(null, { status: 404 })
	return { title: pageTitle(getT()('newsletter.admin.import.metaTitle')), constraint: getZodConstraint(ImportSchema), progress }
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const { db } = await newsletterContext()
	if (Number(request.headers.get('content-length') ?? 0) > MAX_BYTES) {
		return data({ result: null, preview: null, message: getT()('newsletter.admin.import.tooLarge') }, { status: 413 })
	}
	const formData = await uploadedForm(request)
	if (formData.get('intent') === 'confirm') {
		const id = await confirmImport(db, (await getPlatform()).jobs, String(formData.get('importId') ?? ''), admin.id)
		if (id === null) return data({ result: null, preview: null, message: getT()('newsletter.admin.import.expired') }, { status: 400 })
		return redirect(`/dashboard/admin/newsletter/subscribers/import?import=${encodeURIComponent(id)}`)
	}
	const submission = parseWithZod(formData, { schema: ImportSchema })
	const file = formData.get('file')
	if (submission.status !== 'success' || !(file instanceof File) || file.size === 0) {
		const reply = submission.reply(
			file instanceof File && file.size > 0 ? {} : { fieldErrors: { file: [getT()('newsletter.admin.import.noFile')] } },
		)
		return data({ result: reply, preview: null, message: null }, { status: 400 })
	}
	const preview = await previewImport(db, {
		bytes: new Uint8Array(await file.arrayBuffer()),
		consentNote: submission.value.consentNote,
		createdBy: admin.id,
	})
	if ('error' in preview)
		return data({ result: submission.reply({ fieldErrors: { file: [preview.error] } }), preview: null, message: null }, { status: 400 })
	return { result: null, preview, message: null }
}

export default function ImportSubscribers({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const preview = actionData?.preview
	const [form, fields] = useForm<z.input<typeof ImportSchema> & { file: File }>({
		id: 'import',
		lastResult: actionData?.result,
		constraint: loaderData.constraint,
	})
	return (
		<div className="flex flex-col gap-6">
			<PageHeader title={t('newsletter.admin.import.title')} description={t('newsletter.admin.import.description')} />
			<NewsletterNav />
			{actionData?.message ? <FormError id="import-message" errors={[actionData.message]} /> : null}
			{loaderData.progress && !actionData ? (
				<ImportProgress key={loaderData.progress.id} initial={loaderData.progress} />
			) : preview ? (
				<Card as="section" aria-labelledby="apercu-import">
					<CardTitle id="apercu-import">{t('newsletter.admin.import.previewTitle')}</CardTitle>
					<ul className="mt-3 flex flex-col gap-1 text-sm">
						<li>
							<strong className="tabular-nums">{number.format(preview.valid)}</strong> {t('newsletter.admin.import.valid')}
						</li>
						<li>
							<strong className="tabular-nums">{number.format(preview.alreadyListed)}</strong> {t('newsletter.admin.import.alreadyListed')}
						</li>
						<li>
							<strong className="tabular-nums">{number.format(preview.duplicates)}</strong> {t('newsletter.admin.import.duplicates')}
						</li>
						<li>
							<strong className="tabular-nums">{number.format(preview.rejectedCount)}</strong> {t('newsletter.admin.import.rejected')}
						</li>
					</ul>
					<p className="mt-3 text-sm text-muted">{t('newsletter.admin.import.consentIs', { note: preview.consentNote })}</p>
					{preview.sample.length ? (
						<p className="mt-2 text-sm text-muted">
							{t('newsletter.admin.import.sample')} {preview.sample.join(', ')}…
						</p>
					) : null}
					{preview.rejected.length ? (
						<Table label={t('newsletter.admin.import.rejectedTitle')} className="mt-4">
							<TableHead>
								<TableRow>
									<TableHeader numeric>{t('newsletter.admin.import.line')}</TableHeader>
									<TableHeader>{t('newsletter.admin.import.value')}</TableHeader>
									<TableHeader>{t('newsletter.admin.import.reason')}</TableHeader>
								</TableRow>
							</TableHead>
							<TableBody>
								{preview.rejected.map((r) => (
									<TableRow key={r.line}>
										<TableCell numeric>{r.line}</TableCell>
										<TableCell wrap>{r.value || '—'}</TableCell>
										<TableCell>{r.reason}</TableCell>
									</TableRow>
								))}
							</TableBody>
						</Table>
					) : null}
					<Form method="post" className="mt-5 flex flex-wrap gap-3">
						<input type="hidden" name="importId" value={preview.id} />
						<Button type="submit" name="intent" value="confirm" disabled={preview.valid === 0 || navigation.state !== 'idle'}>
							{t('newsletter.admin.import.confirm', { n: number.format(preview.valid) })}
						</Button>
						<Link to="/dashboard/admin/newsletter/subscribers/import" className={buttonClasses('ghost')}>
							{t('newsletter.admin.import.restart')}
						</Link>
					</Form>
				</Card>
			) : (
				<Card as="section" aria-labelledby="fichier-titre" className="max-w-2xl">
					<CardTitle id="fichier-titre">{t('newsletter.admin.import.fileTitle')}</CardTitle>
					<Form method="post" encType="multipart/form-data" className="mt-4 flex flex-col gap-5" {...getFormProps(form)}>
						<input type="hidden" name="intent" value="preview" />
						<FormError id={form.errorId} errors={form.errors} />
						<Field label={t('newsletter.admin.import.file')} hint={t('newsletter.admin.import.fileHint')} errors={fields.file.errors}>
							{(control) => <Input {...control} type="file" name="file" accept=".csv,.txt,text/csv,text/plain" required />}
						</Field>
						<Field
							label={t('newsletter.admin.import.consentNote')}
							hint={t('newsletter.admin.import.consentNoteHint')}
							errors={fields.consentNote.errors}
						>
							{(control) => <Input {...getInputProps(fields.consentNote, { type: 'text' })} {...control} />}
						</Field>
						<Button type="submit" className="self-start" disabled={navigation.state !== 'idle'}>
							{t('newsletter.admin.import.previewSubmit')}
						</Button>
					</Form>
				</Card>
			)}
		</div>
	)
}
