import { Trash2, Upload } from '#app/components/icons.tsx'
import { useState } from 'react'
import { Form } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { formatSize } from './unlocked-view.tsx'
import { FILE_MAX_BYTES } from './rules.ts'

const BASE = '/dashboard/admin/codes'

/** The files a campaign unlocks: upload one (kept privately), remove one. */
export function FilesPanel(props: { campaignId: string; files: { id: string; name: string; size: number }[] }) {
	const { t } = useTranslation()
	const action = `${BASE}/${props.campaignId}/files`
	// A plain browser submission (the file can be large): the button says it is sending meanwhile.
	const [uploading, setUploading] = useState(false)
	return (
		<section aria-labelledby="fichiers" className="rounded-card border border-line bg-surface p-5 sm:p-6">
			<h2 id="fichiers" className="text-lg font-semibold">
				{t('admin.codes.files.title')}
			</h2>
			{props.files.length === 0 ? (
				<p className="mt-3 text-muted">{t('admin.codes.files.empty')}</p>
			) : (
				<ul className="mt-3 flex flex-col divide-y divide-line">
					{props.files.map((file) => (
						<li key={file.id} className="flex items-center justify-between gap-3 py-2">
							<span className="min-w-0 break-words">
								{file.name} <span className="text-sm text-muted">{formatSize(file.size)}</span>
							</span>
							<Form method="post" action={action} reloadDocument>
								<input type="hidden" name="intent" value="delete" />
								<input type="hidden" name="fileId" value={file.id} />
								<Button type="submit" variant="ghost" size="sm" aria-label={t('admin.codes.files.remove', { name: file.name })}>
									<Trash2 aria-hidden="true" />
								</Button>
							</Form>
						</li>
					))}
				</ul>
			)}
			<Form
				method="post"
				action={action}
				encType="multipart/form-data"
				reloadDocument
				onSubmit={() => setUploading(true)}
				className="mt-4 flex flex-col gap-2"
			>
				<label htmlFor="fichier-campagne" className="text-sm font-semibold">
					{t('admin.codes.files.add')}
				</label>
				<div className="flex flex-wrap items-center gap-2">
					<input
						id="fichier-campagne"
						name="file"
						type="file"
						required
						className="min-w-0 flex-1 text-sm file:mr-3 file:rounded-control file:border file:border-line-strong file:bg-transparent file:px-3 file:py-2 file:text-fg"
						aria-describedby="fichier-aide"
					/>
					<Button type="submit" size="sm" variant="secondary" disabled={uploading}>
						<Upload aria-hidden="true" />
						{uploading ? t('admin.codes.files.uploading') : t('admin.codes.files.upload')}
					</Button>
				</div>
				<p id="fichier-aide" className="text-sm text-muted">
					{t('admin.codes.files.hint', { max: formatSize(FILE_MAX_BYTES) })}
				</p>
			</Form>
		</section>
	)
}
