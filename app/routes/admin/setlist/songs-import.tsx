import { ArrowLeft, FileUp } from '#app/components/icons.tsx'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/songs-import'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { FieldError } from '#app/components/ui/field-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { CSV_MAX_BYTES, csvMessages, importSongCsv, previewSongCsv } from '#app/features/setlist/csv-import.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { uploadedForm } from '#app/platform/form-guard.server.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('setlist')

/*
 * Importing songs from a CSV: choose the file, see what will be created and which lines are refused
 * (and why), then import. The file travels back with the confirmation and is checked again: what
 * is created is exactly what the server reads, never what the page says.
 */

const SONGS = '/dashboard/admin/setlist/songs'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	return { title: pageTitle(getT()('setlist.import.metaTitle')) }
}

/** The file's bytes: from the upload (`file`) or from the preview's confirmation (`csv`, base64). */
async function bytesOf(formData: FormData): Promise<Uint8Array | null> {
	const file = formData.get('file')
	if (file instanceof File) return file.size > CSV_MAX_BYTES ? null : new Uint8Array(await file.arrayBuffer())
	const encoded = formData.get('csv')
	if (typeof encoded !== 'string' || encoded.length > Math.ceil((CSV_MAX_BYTES * 4) / 3) + 4) return null
	return new Uint8Array(Buffer.from(encoded, 'base64'))
}

export async function action({ request }: Route.ActionArgs) {
	await requireAdmin(request)
	const formData = await uploadedForm(request)
	const intent = formData.get('intent')
	const bytes = await bytesOf(formData)
	if (!bytes) return data({ error: csvMessages().tooLarge, preview: null }, { status: 400 })
	const db = await getDb()
	if (intent === 'preview') {
		const preview = await previewSongCsv(db, bytes)
		if (!preview.ok) return data({ error: preview.error, preview: null }, { status: 400 })
		const { values: _values, ...shown } = preview
		return { error: null, preview: { ...shown, csv: Buffer.from(bytes).toString('base64') } }
	}
	if (intent === 'import') {
		const result = await importSongCsv(db, bytes)
		if (!result.ok) return data({ error: result.error, preview: null }, { status: 400 })
		return redirectWithFlash(SONGS, { type: 'success', key: 'setlist.flash.imported', values: { count: String(result.created) } })
	}
	throw data(null, { status: 400 })
}

export default function SongsImport({ actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const busy = useNavigation().state !== 'idle'
	const preview = actionData?.preview ?? null
	const error = actionData?.error ?? null
	return (
		<>
			<Link to={SONGS} className={linkClasses('quiet', 'mb-3 inline-flex min-h-11 items-center gap-1.5 text-sm sm:min-h-0')}>
				<ArrowLeft aria-hidden="true" className="size-4" />
				{t('setlist.song.back')}
			</Link>
			<PageHeader title={t('setlist.import.title')} description={t('setlist.import.intro')} />
			<Card className="mt-6 max-w-3xl">
				<Form method="post" encType="multipart/form-data" className="flex flex-col gap-3">
					<label htmlFor="fichier-csv" className="text-sm font-semibold">
						{t('setlist.import.file')}
					</label>
					<input
						id="fichier-csv"
						type="file"
						name="file"
						accept=".csv,text/csv,text/plain"
						required
						aria-describedby={error ? 'fichier-csv-aide fichier-csv-erreur' : 'fichier-csv-aide'}
						aria-invalid={error ? true : undefined}
						className="text-sm file:mr-3 file:min-h-11 file:rounded-control file:border file:border-line-strong file:bg-transparent file:px-4 file:font-semibold file:text-fg"
					/>
					<p id="fichier-csv-aide" className="text-sm text-muted">
						{t('setlist.import.help')}
					</p>
					<pre className="overflow-x-auto rounded-control bg-canvas px-3 py-2 text-xs">{t('setlist.import.example')}</pre>
					{error ? <FieldError id="fichier-csv-erreur" errors={[error]} /> : null}
					<div>
						<Button type="submit" name="intent" value="preview" variant="secondary" disabled={busy}>
							<FileUp aria-hidden="true" />
							{t('setlist.import.preview')}
						</Button>
					</div>
				</Form>
			</Card>

			{preview ? (
				<section aria-labelledby="apercu-import" className="mt-8 flex flex-col gap-6">
					<h2 id="apercu-import" className="text-xl font-semibold" tabIndex={-1}>
						{t('setlist.import.previewTitle')}
					</h2>
					<p className="text-sm text-muted">
						{t('setlist.import.detected', {
							encoding: preview.encoding === 'utf-8' ? 'UTF-8' : 'Windows-1252',
							separator:
								preview.separator === ';'
									? t('setlist.import.semicolon')
									: preview.separator === ','
										? t('setlist.import.comma')
										: t('setlist.import.tab'),
						})}
					</p>
					<Card>
						<CardTitle>{t('setlist.import.createTitle', { count: preview.create.length })}</CardTitle>
						{preview.create.length > 0 ? (
							<Table label={t('setlist.import.createTitle', { count: preview.create.length })} className="mt-3">
								<TableHead>
									<tr>
										<TableHeader numeric>{t('setlist.import.line')}</TableHeader>
										<TableHeader>{t('setlist.songs.columns.title')}</TableHeader>
										<TableHeader className="hidden sm:table-cell">{t('setlist.songs.columns.artist')}</TableHeader>
										<TableHeader numeric>{t('setlist.songs.columns.duration')}</TableHeader>
									</tr>
								</TableHead>
								<TableBody>
									{preview.create.map((row) => (
										<TableRow key={row.line}>
											<TableCell numeric>{row.line}</TableCell>
											<TableCell wrap>{row.title}</TableCell>
											<TableCell wrap className="hidden sm:table-cell">
												{row.originalArtist ?? '—'}
											</TableCell>
											<TableCell numeric>{row.duration ?? '—'}</TableCell>
										</TableRow>
									))}
								</TableBody>
							</Table>
						) : null}
					</Card>
					{preview.rejected.length > 0 ? (
						<Card>
							<CardTitle>{t('setlist.import.rejectedTitle', { count: preview.rejected.length })}</CardTitle>
							<ul className="mt-3 flex flex-col gap-2 text-sm">
								{preview.rejected.map((row) => (
									<li key={row.line} className="rounded-control border border-danger/40 bg-danger/5 px-3 py-2">
										<p className="font-semibold">
											{t('setlist.import.lineNumber', { line: row.line })} <span className="font-normal text-danger">{row.reason}</span>
										</p>
										<p className="mt-0.5 font-mono text-xs break-all text-muted">{row.text}</p>
									</li>
								))}
							</ul>
						</Card>
					) : null}
					<Form method="post" className="flex flex-wrap gap-2">
						<input type="hidden" name="csv" value={preview.csv} />
						<Button type="submit" name="intent" value="import" disabled={busy || preview.create.length === 0}>
							{t('setlist.import.confirm', { count: preview.create.length })}
						</Button>
						<Link to={SONGS} className={buttonClasses('ghost')}>
							{t('setlist.song.cancel')}
						</Link>
					</Form>
				</section>
			) : null}
		</>
	)
}
