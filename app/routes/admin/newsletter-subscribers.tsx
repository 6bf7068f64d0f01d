import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Download, Search, Trash2, Upload } from 'lucide-react'
import { data, Form, Link, useNavigation } from 'react-router'
import type { z } from 'zod'
import type { Route } from './+types/newsletter-subscribers'
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
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { addSubscriber, deleteSubscriberById, listSubscribers, parseStatus } from '#app/features/newsletter/admin.server.ts'
import { NewsletterNav } from '#app/features/newsletter/admin-nav.tsx'
import { useNewsletterLabels } from '#app/features/newsletter/labels.ts'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'
import { AddSubscriberSchema } from '#app/features/newsletter/rules.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { formatDate } from '#app/features/site/format.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { SUBSCRIBER_STATUSES } from '#app/platform/db/schema.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * The subscriber list: search by address, filter by status, pages of 50; add one address (pending,
 * with the confirmation mail, unless the admin certifies the consent); delete (the row is gone);
 * import and export CSV.
 */
const HERE = '/dashboard/admin/newsletter/subscribers'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const params = new URL(request.url).searchParams
	const q = (params.get('q') ?? '').trim().slice(0, 200)
	const status = parseStatus(params.get('status'))
	const page = Number.parseInt(params.get('page') ?? '1', 10) || 1
	const list = await listSubscribers((await newsletterContext()).db, { q, status, page })
	return {
		title: pageTitle(getT()('newsletter.admin.subscribers.metaTitle')),
		q,
		status,
		list,
		constraint: getZodConstraint(AddSubscriberSchema),
	}
}

export async function action({ request }: Route.ActionArgs) {
	await requireAdmin(request)
	const formData = await request.formData()
	const ctx = await newsletterContext()
	if (formData.get('intent') === 'delete') {
		if (await deleteSubscriberById(ctx.db, String(formData.get('id') ?? '')))
			return redirectWithFlash(HERE, { type: 'success', key: 'newsletter.admin.flash.subscriberDeleted' })
		return redirectWithFlash(HERE, { type: 'info', key: 'newsletter.admin.flash.subscriberGone' })
	}
	if (formData.get('intent') !== 'add') throw data(null, { status: 400 })
	const submission = parseWithZod(formData, {
		schema: AddSubscriberSchema.refine((value) => !value.certified || (value.consentNote ?? '').length >= 3, {
			path: ['consentNote'],
			message: 'Indiquez où cette personne a donné son accord.',
		}),
	})
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const added = await addSubscriber(ctx, {
		email: submission.value.email,
		certified: Boolean(submission.value.certified),
		consentNote: submission.value.consentNote,
	})
	if (!added)
		return data(
			{ result: submission.reply({ fieldErrors: { email: [getT()('newsletter.admin.subscribers.alreadyListed')] } }) },
			{ status: 400 },
		)
	const values = { email: submission.value.email }
	if (submission.value.certified) return redirectWithFlash(HERE, { type: 'success', key: 'newsletter.admin.flash.subscriberAdded', values })
	return redirectWithFlash(HERE, { type: 'success', key: 'newsletter.admin.flash.subscriberInvited', values })
}

const TONES: Record<string, BadgeTone> = { active: 'success', pending: 'warning', unsubscribed: 'neutral', bounced: 'danger' }

export default function Subscribers({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const { list } = loaderData
	const labels = useNewsletterLabels()
	const [form, fields] = useForm<z.input<typeof AddSubscriberSchema>>({
		id: 'ajout-abonne',
		lastResult: actionData?.result,
		constraint: loaderData.constraint,
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: AddSubscriberSchema }),
	})
	const pageUrl = (page: number) =>
		`${HERE}?${new URLSearchParams({ ...(loaderData.q ? { q: loaderData.q } : {}), ...(loaderData.status ? { status: loaderData.status } : {}), page: String(page) })}`
	const exportUrl = `/dashboard/admin/newsletter/subscribers.csv${loaderData.status ? `?status=${loaderData.status}` : ''}`
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
					<Form method="get" role="search" className="flex flex-wrap items-end gap-3">
						<Field label={t('newsletter.admin.subscribers.search')} className="min-w-48 flex-1">
							{(control) => <Input {...control} type="search" name="q" defaultValue={loaderData.q} placeholder="prenom@exemple.fr" />}
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
						<Button type="submit" variant="secondary">
							<Search aria-hidden="true" />
							{t('newsletter.admin.subscribers.filter')}
						</Button>
					</Form>
					<p className="text-sm text-muted" role="status">
						{t('newsletter.admin.subscribers.count', { count: list.total })}
					</p>
					{list.rows.length === 0 ? (
						<EmptyState title={t('newsletter.admin.subscribers.emptyTitle')} body={t('newsletter.admin.subscribers.emptyBody')} />
					) : (
						<Table label={t('newsletter.admin.nav.subscribers')}>
							<TableHead>
								<TableRow>
									<TableHeader>{t('newsletter.admin.subscribers.email')}</TableHeader>
									<TableHeader>{t('newsletter.admin.subscribers.status')}</TableHeader>
									<TableHeader>{t('newsletter.admin.subscribers.source')}</TableHeader>
									<TableHeader>{t('newsletter.admin.subscribers.since')}</TableHeader>
									<TableHeader>
										<span className="sr-only">{t('newsletter.admin.subscribers.actions')}</span>
									</TableHeader>
								</TableRow>
							</TableHead>
							<TableBody>
								{list.rows.map((row) => (
									<TableRow key={row.id}>
										<TableCell wrap className="font-medium">
											{row.email}
										</TableCell>
										<TableCell>
											<Badge tone={TONES[row.status]}>{labels.status(row.status)}</Badge>
										</TableCell>
										<TableCell wrap>
											{labels.source(row.source)}
											{row.consentNote ? <span className="block text-xs text-muted">{row.consentNote}</span> : null}
										</TableCell>
										<TableCell>{formatDate(row.consentAt ?? row.createdAt)}</TableCell>
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
					)}
					{list.pages > 1 ? (
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
					) : null}
				</section>
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
			</div>
		</div>
	)
}
