import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Copy, ListMusic, Plus, Trash2 } from '#app/components/icons.tsx'
import { useState } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/setlists'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog } from '#app/components/ui/dialog.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { formatTotal } from '#app/features/setlist/duration.ts'
import { SetlistCreateSchema } from '#app/features/setlist/forms.ts'
import { SetlistNav } from '#app/features/setlist/setlist-nav.tsx'
import { createSetlist, deleteSetlist, duplicateSetlist, listSetlists } from '#app/features/setlist/setlists.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { formatDate } from '#app/platform/time-zone.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('setlist')

/*
 * /dashboard/admin/setlist: every setlist, the last worked on first, with its show, its length and
 * whether it is published; create one by its name, duplicate or delete one.
 */

const LIST = '/dashboard/admin/setlist'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	return {
		title: pageTitle(getT()('setlist.list.metaTitle')),
		setlists: await listSetlists(await getDb()),
		constraint: getZodConstraint(SetlistCreateSchema),
	}
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const db = await getDb()
	const formData = await request.formData()
	const intent = String(formData.get('intent') ?? '')
	if (intent === 'create') {
		const submission = parseWithZod(formData, { schema: SetlistCreateSchema })
		if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
		const id = await createSetlist(db, submission.value.name, admin.id)
		return redirectWithFlash(`${LIST}/${id}`, { type: 'success', key: 'setlist.flash.created' })
	}
	const id = String(formData.get('setlistId') ?? '')
	if (intent === 'duplicate') {
		const copy = await duplicateSetlist(db, id, admin.id, (name) => getT()('setlist.copyName', { name }))
		if (!copy) return redirectWithFlash(LIST, { type: 'info', key: 'setlist.flash.gone' })
		return redirectWithFlash(`${LIST}/${copy}`, { type: 'success', key: 'setlist.flash.duplicated' })
	}
	if (intent === 'delete') {
		const deleted = await deleteSetlist(db, id)
		if (!deleted) return redirectWithFlash(LIST, { type: 'info', key: 'setlist.flash.gone' })
		return redirectWithFlash(LIST, { type: 'success', key: 'setlist.flash.deleted', values: { name: deleted.name } })
	}
	throw data(null, { status: 400 })
}

export default function Setlists({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const busy = navigation.state !== 'idle'
	const [form, fields] = useForm<{ name: string }>({
		id: 'form-nouvelle-setlist',
		lastResult: actionData?.result,
		constraint: loaderData.constraint,
	})
	const [toDelete, setToDelete] = useState<{ id: string; name: string } | null>(null)
	const { setlists } = loaderData
	return (
		<>
			<SetlistNav />
			<PageHeader title={t('setlist.list.title')} description={t('setlist.list.intro')} />
			<Form method="post" {...getFormProps(form)} className="mt-6 flex max-w-2xl flex-wrap items-end gap-2">
				<Field label={t('setlist.list.newName')} errors={fields.name.errors} className="min-w-0 flex-1 basis-60">
					{(control) => (
						<Input
							{...getInputProps(fields.name, { type: 'text' })}
							{...control}
							placeholder={t('setlist.list.newPlaceholder')}
							autoComplete="off"
						/>
					)}
				</Field>
				<Button type="submit" name="intent" value="create" disabled={busy}>
					<Plus aria-hidden="true" />
					{t('setlist.list.create')}
				</Button>
			</Form>

			<section aria-labelledby="liste-setlists" className="mt-8">
				<h2 id="liste-setlists" className="sr-only">
					{t('setlist.list.title')}
				</h2>
				{setlists.length === 0 ? (
					<EmptyState icon={<ListMusic aria-hidden="true" />} title={t('setlist.list.emptyTitle')} body={t('setlist.list.emptyBody')} />
				) : (
					<Table label={t('setlist.list.tableLabel')}>
						<TableHead>
							<tr>
								<TableHeader>{t('setlist.list.columns.name')}</TableHeader>
								<TableHeader className="hidden md:table-cell">{t('setlist.list.columns.event')}</TableHeader>
								<TableHeader className="hidden sm:table-cell">{t('setlist.list.columns.length')}</TableHeader>
								<TableHeader className="relative">
									<span className="sr-only">{t('setlist.list.columns.actions')}</span>
								</TableHeader>
							</tr>
						</TableHead>
						<TableBody>
							{setlists.map((row) => {
								const length = `${t('setlist.builder.songCount', { count: row.songCount })} · ${formatTotal(row.durationSeconds)}`
								const event = row.event
									? `${formatDate(row.event.startsAt)} · ${row.event.title} (${row.event.city})`
									: t('setlist.list.noEvent')
								return (
									<TableRow key={row.id}>
										<TableCell wrap className="align-top">
											<Link to={`${LIST}/${row.id}`} className={linkClasses('default', 'font-semibold decoration-accent/70')}>
												{row.name}
											</Link>
											<span className="mt-1 flex flex-wrap items-center gap-2">
												<Badge tone={row.published ? 'info' : 'neutral'}>
													{row.published ? t('setlist.published') : t('setlist.unpublished')}
												</Badge>
												<span className="text-sm text-muted sm:hidden">{length}</span>
											</span>
											<span className="mt-1 block text-sm text-muted md:hidden">{event}</span>
										</TableCell>
										<TableCell wrap className="hidden align-top text-sm md:table-cell">
											{event}
										</TableCell>
										<TableCell className="hidden align-top text-sm tabular-nums sm:table-cell">{length}</TableCell>
										<TableCell className="w-px text-right align-top">
											<div className="flex justify-end gap-1">
												<Form method="post">
													<input type="hidden" name="setlistId" value={row.id} />
													<Button
														type="submit"
														name="intent"
														value="duplicate"
														variant="ghost"
														size="sm"
														disabled={busy}
														aria-label={t('setlist.list.duplicateLabel', { name: row.name })}
													>
														<Copy aria-hidden="true" />
													</Button>
												</Form>
												<Button
													variant="ghost"
													size="sm"
													aria-haspopup="dialog"
													aria-label={t('setlist.list.deleteLabel', { name: row.name })}
													onClick={() => setToDelete({ id: row.id, name: row.name })}
													className="text-muted hover:text-danger"
												>
													<Trash2 aria-hidden="true" />
												</Button>
											</div>
										</TableCell>
									</TableRow>
								)
							})}
						</TableBody>
					</Table>
				)}
			</section>

			<Dialog
				open={toDelete !== null}
				onClose={() => setToDelete(null)}
				title={t('setlist.list.deleteTitle', { name: toDelete?.name ?? '' })}
				description={t('setlist.list.deleteBody')}
				size="sm"
				actions={
					<>
						<Button variant="secondary" onClick={() => setToDelete(null)}>
							{t('setlist.list.deleteCancel')}
						</Button>
						<Button
							type="submit"
							variant="danger"
							form="form-suppression-setlist"
							disabled={busy}
							onClick={() => setTimeout(() => setToDelete(null))}
						>
							{t('setlist.list.deleteConfirm')}
						</Button>
					</>
				}
			/>
			<Form method="post" id="form-suppression-setlist" hidden>
				<input type="hidden" name="intent" value="delete" />
				<input type="hidden" name="setlistId" value={toDelete?.id ?? ''} />
			</Form>
		</>
	)
}
