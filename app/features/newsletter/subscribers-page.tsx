import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Download, Search, Trash2, Upload } from '#app/components/icons.tsx'
import { Form, Link, useNavigation } from 'react-router'
import type { z } from 'zod'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Checkbox } from '#app/components/ui/checkbox.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { formatDate } from '#app/platform/time-zone.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { SUBSCRIBER_SOURCES, SUBSCRIBER_STATUSES } from '#app/platform/db/schema.ts'
import { NewsletterNav, SUBSCRIBERS_PATH as HERE } from './admin-nav.tsx'
import { useNewsletterLabels } from './labels.ts'
import { AddSubscriberSchema } from './forms.ts'
import { TownField } from '#app/features/towns/town-field.tsx'
import { MAX_RADIUS_KM, MIN_RADIUS_KM } from '#app/features/towns/rules.ts'
import type { subscribersPageData } from './subscribers-page.server.ts'

/*
 * The admin's subscriber list: the search and status filter, the table with a delete button per
 * address and its pages, and the card to add one address. Its data and actions are
 * subscribers-page.server.ts.
 */

type PageData = Awaited<ReturnType<typeof subscribersPageData>>
const TONES: Record<string, BadgeTone> = { active: 'success', pending: 'warning', unsubscribed: 'neutral', bounced: 'danger' }

export function SubscribersPage({ loaderData, lastResult }: { loaderData: PageData; lastResult?: SubmissionResult<string[]> }) {
	const { t } = useTranslation()
	const exportUrl = `${HERE}.csv${loaderData.filters ? `?${loaderData.filters}` : ''}`
	return (
		<div className="flex flex-col gap-6">
			<PageHeader
				title={t('newsletter.admin.title')}
				actions={
					<>
						<Link to={`${HERE}/import`} className={buttonClasses('secondary')}>
							<Upload aria-hidden="true" />
							{t('newsletter.admin.subscribers.import')}
						</Link>
						<a href={exportUrl} download className={buttonClasses('secondary')}>
							<Download aria-hidden="true" />
							{t('newsletter.admin.subscribers.export')}
						</a>
					</>
				}
			/>
			<NewsletterNav />
			<div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]">
				<section aria-labelledby="abonnes-titre" className="flex min-w-0 flex-col gap-4">
					<h2 id="abonnes-titre" className="sr-only">
						{t('newsletter.admin.nav.subscribers')}
					</h2>
					<SubscriberSearch loaderData={loaderData} />
					<p className="text-sm text-muted" role="status">
						{t('newsletter.admin.subscribers.count', { count: loaderData.list.total })}
					</p>
					<SubscriberTable rows={loaderData.list.rows} />
					<SubscriberPages loaderData={loaderData} />
				</section>
				<AddSubscriberCard constraint={loaderData.constraint} lastResult={lastResult} />
			</div>
		</div>
	)
}

function SubscriberSearch({ loaderData }: { loaderData: PageData }) {
	const { t } = useTranslation()
	const labels = useNewsletterLabels()
	const { segment } = loaderData
	return (
		<Form method="get" role="search" className="flex flex-col gap-3">
			<div className="flex flex-wrap items-end gap-3">
				<Field label={t('newsletter.admin.subscribers.search')} className="min-w-48 flex-1">
					{(control) => (
						<Input {...control} type="search" name="q" defaultValue={loaderData.q} placeholder={t('newsletter.signup.emailPlaceholder')} />
					)}
				</Field>
				<Field label={t('newsletter.admin.subscribers.status')}>
					{(control) => (
						<Select {...control} name="status" defaultValue={loaderData.status ?? ''}>
							<option value="">{t('newsletter.admin.subscribers.allStatuses')}</option>
							{SUBSCRIBER_STATUSES.map((s) => (
								<option key={s} value={s}>
									{labels.status(s)}
								</option>
							))}
						</Select>
					)}
				</Field>
				<Field label={t('newsletter.admin.segments.source')}>
					{(control) => (
						<Select {...control} name="source" defaultValue={segment.source ?? ''}>
							<option value="">{t('newsletter.admin.segments.allSources')}</option>
							{SUBSCRIBER_SOURCES.map((source) => (
								<option key={source} value={source}>
									{labels.source(source)}
								</option>
							))}
						</Select>
					)}
				</Field>
			</div>
			<div className="flex flex-wrap items-start gap-3">
				<Field label={t('newsletter.admin.segments.from')}>
					{(control) => <Input {...control} type="date" name="from" defaultValue={segment.from ?? ''} />}
				</Field>
				<Field label={t('newsletter.admin.segments.to')}>
					{(control) => <Input {...control} type="date" name="to" defaultValue={segment.to ?? ''} />}
				</Field>
				<Field
					label={t('newsletter.admin.segments.km')}
					errors={loaderData.radiusProblem ? [loaderData.radiusProblem] : null}
					className={loaderData.radiusProblem ? 'w-56' : 'w-28'}
				>
					{(control) => (
						<Input
							{...control}
							type="number"
							name="km"
							min={MIN_RADIUS_KM}
							max={MAX_RADIUS_KM}
							step={10}
							defaultValue={loaderData.radiusProblem ? loaderData.typedKm : segment.radiusKm}
						/>
					)}
				</Field>
				<div className="min-w-56 flex-1">
					<TownField
						key={loaderData.typedTown}
						name="ville"
						defaultValue={loaderData.typedTown}
						problem={loaderData.townProblem}
						label={t('newsletter.admin.segments.town')}
						hint={t('newsletter.admin.segments.townHint')}
					/>
				</div>
			</div>
			<Button type="submit" variant="secondary" className="self-start">
				<Search aria-hidden="true" />
				{t('newsletter.admin.subscribers.filter')}
			</Button>
		</Form>
	)
}

function SubscriberTable({ rows }: { rows: PageData['list']['rows'] }) {
	const { t } = useTranslation()
	const labels = useNewsletterLabels()
	if (rows.length === 0) {
		return <EmptyState title={t('newsletter.admin.subscribers.emptyTitle')} body={t('newsletter.admin.subscribers.emptyBody')} />
	}
	return (
		<Table label={t('newsletter.admin.nav.subscribers')}>
			<TableHead>
				<TableRow>
					<TableHeader>{t('newsletter.admin.subscribers.email')}</TableHeader>
					<TableHeader>{t('newsletter.admin.subscribers.status')}</TableHeader>
					{/* On a phone, the address, its state and the delete button: the origin and date need the width. */}
					<TableHeader className="hidden md:table-cell">{t('newsletter.admin.subscribers.source')}</TableHeader>
					<TableHeader className="hidden md:table-cell">{t('newsletter.admin.subscribers.since')}</TableHeader>
					<TableHeader>
						<span className="sr-only">{t('newsletter.admin.subscribers.actions')}</span>
					</TableHeader>
				</TableRow>
			</TableHead>
			<TableBody>
				{rows.map((row) => (
					<TableRow key={row.id}>
						<TableCell wrap className="font-medium">
							{row.email}
						</TableCell>
						<TableCell>
							<Badge tone={TONES[row.status]}>{labels.status(row.status)}</Badge>
						</TableCell>
						<TableCell wrap className="hidden md:table-cell">
							{labels.source(row.source)}
							{row.consentNote ? <span className="block text-xs text-muted">{row.consentNote}</span> : null}
						</TableCell>
						<TableCell className="hidden md:table-cell">{formatDate(row.consentAt ?? row.createdAt)}</TableCell>
						<TableCell>
							<Form
								method="post"
								onSubmit={(event) => {
									if (!confirm(t('newsletter.admin.subscribers.confirmDelete', { email: row.email }))) event.preventDefault()
								}}
							>
								<input type="hidden" name="id" value={row.id} />
								<Button
									type="submit"
									name="intent"
									value="delete"
									variant="ghost"
									size="sm"
									aria-label={t('newsletter.admin.subscribers.delete', { email: row.email })}
								>
									<Trash2 aria-hidden="true" />
								</Button>
							</Form>
						</TableCell>
					</TableRow>
				))}
			</TableBody>
		</Table>
	)
}

function SubscriberPages({ loaderData }: { loaderData: PageData }) {
	const { t } = useTranslation()
	const { list } = loaderData
	if (list.pages <= 1) return null
	const pageUrl = (page: number) => `${HERE}?${loaderData.filters ? `${loaderData.filters}&` : ''}page=${page}`
	return (
		<nav aria-label={t('newsletter.admin.subscribers.pages')} className="flex items-center gap-4 text-sm">
			{list.page > 1 ? (
				<Link to={pageUrl(list.page - 1)} className={linkClasses()}>
					{t('newsletter.admin.subscribers.previous')}
				</Link>
			) : null}
			<span className="text-muted">{t('newsletter.admin.subscribers.page', { page: list.page, pages: list.pages })}</span>
			{list.page < list.pages ? (
				<Link to={pageUrl(list.page + 1)} className={linkClasses()}>
					{t('newsletter.admin.subscribers.next')}
				</Link>
			) : null}
		</nav>
	)
}

function AddSubscriberCard(props: { constraint: PageData['constraint']; lastResult?: SubmissionResult<string[]> }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof AddSubscriberSchema>>({
		id: 'ajout-abonne',
		lastResult: props.lastResult,
		constraint: props.constraint,
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: AddSubscriberSchema }),
	})
	return (
		<Card as="section" aria-labelledby="ajout-titre" className="self-start">
			<CardTitle id="ajout-titre">{t('newsletter.admin.subscribers.addTitle')}</CardTitle>
			<Form method="post" className="mt-4 flex flex-col gap-4" {...getFormProps(form)}>
				<input type="hidden" name="intent" value="add" />
				<FormError id={form.errorId} errors={form.errors} />
				<Field label={t('newsletter.admin.subscribers.email')} errors={fields.email.errors}>
					{(control) => <Input {...getInputProps(fields.email, { type: 'email' })} {...control} />}
				</Field>
				<Checkbox
					{...getInputProps(fields.certified, { type: 'checkbox' })}
					label={t('newsletter.admin.subscribers.certified')}
					hint={t('newsletter.admin.subscribers.certifiedHint')}
				/>
				<Field
					label={t('newsletter.admin.subscribers.consentNote')}
					optional={t('newsletter.admin.compose.optional')}
					errors={fields.consentNote.errors}
				>
					{(control) => (
						<Input
							{...getInputProps(fields.consentNote, { type: 'text' })}
							{...control}
							placeholder={t('newsletter.admin.subscribers.consentNotePlaceholder')}
						/>
					)}
				</Field>
				<Button type="submit" disabled={navigation.state === 'submitting'}>
					{t('newsletter.admin.subscribers.add')}
				</Button>
			</Form>
		</Card>
	)
}
