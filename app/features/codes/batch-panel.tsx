import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { Download, Printer, Upload } from '#app/components/icons.tsx'
import { useEffect, useState } from 'react'
import { Form, Link, useNavigation, useRevalidator } from 'react-router'
import { validateInBrowser } from '#app/components/forms/validate-in-browser.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { formatDateTime } from '#app/platform/time-zone.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { BatchSchema, type BatchInput } from './forms.ts'

const BASE = '/dashboard/admin/codes'

export interface BatchRow {
	id: string
	kind: 'generated' | 'imported'
	label: string
	requested: number
	created: number
	status: 'pending' | 'running' | 'done' | 'failed'
	error: string | null
	revokedAt: Date | string | null
	createdAt: Date | string
	redeemed: number
}

type Constraint = Parameters<typeof useForm<BatchInput>>[0]['constraint']
const number = (n: number) => n.toLocaleString('fr-FR')

/** A batch's progress, live from the server while its job runs (Server-Sent Events). */
function useLiveProgress(batch: BatchRow) {
	const [created, setCreated] = useState(batch.created)
	const revalidator = useRevalidator()
	const running = batch.status === 'pending' || batch.status === 'running'
	useEffect(() => setCreated(batch.created), [batch.created])
	useEffect(() => {
		if (!running) return
		const source = new EventSource(`${BASE}/batches/${batch.id}/progress`)
		source.addEventListener('progress', (event) => {
			const data = JSON.parse((event as MessageEvent<string>).data) as { created: number; done?: boolean }
			setCreated(data.created)
			if (data.done) {
				source.close()
				void revalidator.revalidate()
			}
		})
		return () => source.close()
		// The revalidator changes on every render; the stream belongs to the batch and its running state alone.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [batch.id, running])
	return created
}

function BatchItem({ batch }: { batch: BatchRow }) {
	const { t } = useTranslation()
	const created = useLiveProgress(batch)
	const [confirming, setConfirming] = useState(false)
	const running = batch.status === 'pending' || batch.status === 'running'
	const percent = batch.requested > 0 ? Math.floor((created / batch.requested) * 100) : 100
	const title = batch.label || (batch.kind === 'imported' ? t('admin.codes.batches.imported') : t('admin.codes.batches.generated'))
	return (
		<li className="rounded-control border border-line p-4">
			<div className="flex flex-wrap items-baseline justify-between gap-2">
				<p className="font-semibold">{title}</p>
				{batch.revokedAt ? (
					<Badge tone="danger">{t('admin.codes.batches.revoked')}</Badge>
				) : batch.status === 'failed' ? (
					<Badge tone="danger">{t('admin.codes.batches.failed')}</Badge>
				) : running ? (
					<Badge tone="info">{t('admin.codes.batches.running')}</Badge>
				) : (
					<Badge tone="success">{t('admin.codes.batches.done')}</Badge>
				)}
			</div>
			<p className="mt-1 text-sm text-muted">
				{t('admin.codes.batches.summary', {
					n: number(batch.kind === 'imported' && !running ? batch.requested : created),
					redeemed: number(batch.redeemed),
					date: formatDateTime(batch.createdAt),
				})}
			</p>
			{running ? (
				<div className="mt-3">
					<progress
						className="h-2 w-full accent-(--color-accent)"
						max={batch.requested}
						value={created}
						aria-label={t('admin.codes.batches.progressLabel', { title })}
					/>
					<p className="mt-1 text-sm text-muted" aria-live="polite">
						{t('admin.codes.batches.progress', { created: number(created), requested: number(batch.requested), percent })}
					</p>
				</div>
			) : null}
			{batch.error ? <p className="mt-2 text-sm text-danger">{batch.error}</p> : null}
			{batch.status === 'done' ? (
				<div className="mt-3 flex flex-wrap gap-2">
					<a href={`${BASE}/batches/${batch.id}/export.csv`} className={buttonClasses('secondary', 'sm')} download>
						<Download aria-hidden="true" />
						{t('admin.codes.batches.export')}
					</a>
					<a href={`${BASE}/batches/${batch.id}/print`} className={buttonClasses('secondary', 'sm')} target="_blank" rel="noopener">
						<Printer aria-hidden="true" />
						{t('admin.codes.batches.print')}
					</a>
					{!batch.revokedAt ? (
						confirming ? (
							<Form method="post" className="flex flex-wrap items-center gap-2">
								<input type="hidden" name="intent" value="revoke-batch" />
								<input type="hidden" name="batchId" value={batch.id} />
								<Button type="submit" variant="danger" size="sm">
									{t('admin.codes.batches.revokeConfirm')}
								</Button>
								<Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
									{t('admin.codes.batches.cancel')}
								</Button>
							</Form>
						) : (
							<Button variant="ghost" size="sm" onClick={() => setConfirming(true)}>
								{t('admin.codes.batches.revoke')}
							</Button>
						)
					) : null}
				</div>
			) : null}
		</li>
	)
}

/** The campaign's batches, and the form that generates a new one. */
export function BatchPanel(props: {
	campaignId: string
	batches: BatchRow[]
	constraint: Constraint
	result: SubmissionResult<string[]> | null | undefined
}) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const generating = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'generate'
	const [form, fields] = useForm<BatchInput>({
		id: 'form-lot',
		lastResult: props.result,
		constraint: props.constraint,
		...validateInBrowser(BatchSchema),
	})
	return (
		<section aria-labelledby="lots" className="rounded-card border border-line bg-surface p-5 sm:p-6">
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h2 id="lots" className="text-lg font-semibold">
					{t('admin.codes.batches.title')}
				</h2>
				<Link to={`${BASE}/${props.campaignId}/import`} className={buttonClasses('secondary', 'sm')}>
					<Upload aria-hidden="true" />
					{t('admin.codes.batches.import')}
				</Link>
			</div>
			<Form method="post" className="mt-4 grid gap-4 sm:grid-cols-[10rem_minmax(0,1fr)_auto] sm:items-start" {...getFormProps(form)}>
				<input type="hidden" name="intent" value="generate" />
				<Field label={t('admin.codes.batches.count')} errors={fields.count.errors}>
					{(control) => <Input {...getInputProps(fields.count, { type: 'number' })} {...control} inputMode="numeric" />}
				</Field>
				<Field label={t('admin.codes.batches.label')} errors={fields.label.errors} optional={t('admin.codes.form.optional')}>
					{(control) => <Input {...getInputProps(fields.label, { type: 'text' })} {...control} autoComplete="off" />}
				</Field>
				<Button type="submit" className="sm:mt-7" disabled={generating}>
					{t('admin.codes.batches.generate')}
				</Button>
			</Form>
			{props.batches.length === 0 ? (
				<p className="mt-4 text-muted">{t('admin.codes.batches.empty')}</p>
			) : (
				<ul className="mt-5 flex flex-col gap-3">
					{props.batches.map((batch) => (
						<BatchItem key={batch.id} batch={batch} />
					))}
				</ul>
			)}
		</section>
	)
}
