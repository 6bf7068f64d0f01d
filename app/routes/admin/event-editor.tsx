import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { clsx } from 'clsx'
import { AlertTriangle, ArrowLeft, ExternalLink, Trash2 } from 'lucide-react'
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { data, Form, isRouteErrorResponse, Link, useBlocker, useFetcher, useNavigation } from 'react-router'
import type { Route } from './+types/event-editor'
import { ImageUpload } from '#app/components/image-upload.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Dialog } from '#app/components/ui/dialog.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { EventSetlistPanel } from '#app/features/setlist/event-setlist-panel.tsx'
import { coverExists, createEvent, deleteEvent, getEventForEditor, updateEvent } from '#app/features/events/admin.server.ts'
import { DEFAULT_DURATION_MS, isPastEvent } from '#app/features/events/events.server.ts'
import { EVENT_FORM_MESSAGES, EVENT_LIMITS, EventFormSchema, eventValuesFrom, type EventFormInput } from '#app/features/events/form.ts'
import { instantToParisWallClock, parisWallClockToInstant } from '#app/features/events/paris-time.ts'
import { mediaStatus } from '#app/features/media/media.server.ts'
import type { MediaStatus } from '#app/features/media/rules.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { formatDateTime } from '#app/features/site/format.ts'
import { renderMarkdown } from '#app/features/site/markdown.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'

/*
 * The event editor, /dashboard/admin/events/:eventId (`new` for an event not stored yet): every
 * field of the public page in groups, dates in Paris time, a live Markdown preview rendered by the
 * server, the cover, and publication. Every button saves the whole form first (« Publier » saves
 * and publishes), so nothing typed is lost; a refused form comes back with its French errors next
 * to the fields and everything that was typed. An unknown id is a 404 shown inside the admin.
 */

const LIST = '/dashboard/admin/events'
const NEW = 'new'
const SAVE_INTENTS = ['save', 'publish', 'unpublish'] as const
type SaveIntent = (typeof SAVE_INTENTS)[number]

const STATUSES = ['scheduled', 'sold_out', 'postponed', 'cancelled'] as const

export function meta({ loaderData }: Route.MetaArgs) {
	return [{ title: loaderData?.title }, { name: 'robots', content: 'noindex' }]
}

/** A coordinate as a French admin reads and types it: « 48,8566 ». */
const frenchDecimal = (value: number | null) => (value === null ? '' : String(value).replace('.', ','))
const wallClock = (value: Date | null) => (value ? instantToParisWallClock(value) : '')

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const t = getT()
	const db = await getDb()
	const isNew = params.eventId === NEW
	const row = isNew ? null : await getEventForEditor(db, params.eventId)
	if (!isNew && !row) throw data({ reason: 'not-found' }, { status: 404 })
	const values: Required<{ [K in keyof EventFormInput]: string }> = row
		? {
				title: row.title,
				status: row.status,
				previousStartsAt: wallClock(row.previousStartsAt),
				doorsAt: wallClock(row.doorsAt),
				startsAt: wallClock(row.startsAt),
				endsAt: wallClock(row.endsAt),
				venueName: row.venueName,
				address: row.address ?? '',
				postalCode: row.postalCode ?? '',
				city: row.city,
				country: row.country,
				latitude: frenchDecimal(row.latitude),
				longitude: frenchDecimal(row.longitude),
				ticketUrl: row.ticketUrl ?? '',
				priceText: row.priceText ?? '',
				description: row.description,
				coverId: row.coverId ?? '',
			}
		: {
				title: '',
				status: 'scheduled',
				previousStartsAt: '',
				doorsAt: '',
				startsAt: '',
				endsAt: '',
				venueName: '',
				address: '',
				postalCode: '',
				city: '',
				country: 'FR',
				latitude: '',
				longitude: '',
				ticketUrl: '',
				priceText: '',
				description: '',
				coverId: '',
			}
	return {
		title: pageTitle(row ? t('admin.events.editor.metaTitle', { title: row.title }) : t('admin.events.editor.newTitle')),
		// A new key on every load: after a save (a redirect here), the form starts from what is stored.
		formKey: crypto.randomUUID(),
		event: row
			? {
					id: row.id,
					title: row.title,
					status: row.status,
					published: row.published,
					publishedAt: row.publishedAt?.toISOString() ?? null,
					updatedAt: row.updatedAt.toISOString(),
				}
			: null,
		values,
		cover: row?.coverId ? await mediaStatus(db, row.coverId, { kind: 'cover' }) : null,
		descriptionHtml: row?.description.trim() ? renderMarkdown(row.description) : '',
		constraint: getZodConstraint(EventFormSchema),
		limits: { description: EVENT_LIMITS.description },
		defaultDurationMs: DEFAULT_DURATION_MS,
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const formData = await request.formData()
	const intent = String(formData.get('intent') ?? '')
	const isNew = params.eventId === NEW
	const db = await getDb()

	// The live preview of the description: sanitised HTML, never stored.
	if (intent === 'preview') {
		const source = String(formData.get('description') ?? '')
			.replace(/\r\n?/g, '\n')
			.slice(0, EVENT_LIMITS.description)
		return { intent: 'preview' as const, html: source.trim() ? renderMarkdown(source) : '' }
	}

	if (intent === 'delete') {
		const deleted = isNew ? null : await deleteEvent(db, params.eventId)
		if (!deleted) return redirectWithFlash(LIST, { type: 'info', key: 'admin.events.flash.alreadyDeleted' })
		return redirectWithFlash(LIST, { type: 'success', key: 'admin.events.flash.deleted', values: { title: deleted.title } })
	}

	if (!SAVE_INTENTS.includes(intent as SaveIntent)) throw data({ reason: 'unknown-intent' }, { status: 400 })
	const existing = isNew ? null : await getEventForEditor(db, params.eventId)
	if (!isNew && !existing) throw data({ reason: 'not-found' }, { status: 404 })

	const submission = parseWithZod(formData, { schema: EventFormSchema })
	if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
	const values = eventValuesFrom(submission.value)
	if (values.coverId && values.coverId !== existing?.coverId && !(await coverExists(db, values.coverId))) {
		return data({ intent, result: submission.reply({ fieldErrors: { coverId: [EVENT_FORM_MESSAGES.cover] } }) }, { status: 400 })
	}

	const publish = intent === 'publish' ? true : intent === 'unpublish' ? false : undefined
	let id: string
	if (existing) {
		if (!(await updateEvent(db, existing.id, values, admin.id, { publish }))) throw data({ reason: 'not-found' }, { status: 404 })
		id = existing.id
	} else {
		id = await createEvent(db, values, admin.id, { publish: publish === true })
	}

	// A date in the past is allowed (an archive of old shows), with a word of warning when it is new.
	const dateChanged = !existing || existing.startsAt.getTime() !== values.startsAt.getTime()
	const inPast = dateChanged && isPastEvent(values)
	const to = `${LIST}/${id}`
	if (!existing) {
		if (publish) {
			return inPast
				? redirectWithFlash(to, { type: 'info', key: 'admin.events.flash.publishedInPast' })
				: redirectWithFlash(to, { type: 'success', key: 'admin.events.flash.published' })
		}
		return inPast
			? redirectWithFlash(to, { type: 'info', key: 'admin.events.flash.createdInPast' })
			: redirectWithFlash(to, { type: 'success', key: 'admin.events.flash.created' })
	}
	if (publish === true) {
		return inPast
			? redirectWithFlash(to, { type: 'info', key: 'admin.events.flash.publishedInPast' })
			: redirectWithFlash(to, { type: 'success', key: 'admin.events.flash.published' })
	}
	if (publish === false) return redirectWithFlash(to, { type: 'success', key: 'admin.events.flash.unpublished' })
	return inPast
		? redirectWithFlash(to, { type: 'info', key: 'admin.events.flash.savedInPast' })
		: redirectWithFlash(to, { type: 'success', key: 'admin.events.flash.saved' })
}

const STATUS_TONES: Record<string, BadgeTone> = {
	scheduled: 'success',
	sold_out: 'accent',
	postponed: 'warning',
	cancelled: 'danger',
}

type LoaderData = Route.ComponentProps['loaderData']

export default function EventEditor({ loaderData, actionData }: Route.ComponentProps) {
	return <Editor key={loaderData.formKey} loaderData={loaderData} actionData={actionData} />
}

const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['fr'], { type: 'region', fallback: 'none' }) : null
/** The same codes the server refuses (features/events/form.ts): they name no country. */
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO', 'UK', 'XA', 'XB'])
/** « Belgique » under the field while « BE » is typed; null for what is not a country. */
function countryName(code: string | undefined): string | null {
	const upper = (code ?? '').trim().toUpperCase()
	if (!/^[A-Z]{2}$/.test(upper) || NOT_COUNTRIES.has(upper) || !regionNames) return null
	try {
		return regionNames.of(upper) ?? null
	} catch {
		return null
	}
}

function Editor({ loaderData, actionData }: { loaderData: LoaderData; actionData: Route.ComponentProps['actionData'] }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const { event, values } = loaderData
	const isNew = event === null
	const lastResult = actionData && 'result' in actionData ? actionData.result : undefined
	const [form, fields] = useForm<EventFormInput>({
		id: 'form-evenement',
		lastResult,
		constraint: loaderData.constraint,
		defaultValue: values,
		shouldRevalidate: 'onInput',
	})
	const sendingIntent =
		navigation.state !== 'idle' && navigation.formMethod === 'POST' ? String(navigation.formData?.get('intent') ?? '') : null
	const sending = sendingIntent !== null && sendingIntent !== 'delete'

	// Leaving with unsaved changes asks first: inside the site (router) and when closing the tab.
	const submitting = useRef(false)
	useEffect(() => {
		if (navigation.state === 'idle') submitting.current = false
	}, [navigation.state])
	// The cover's hidden input changes without an input event: the upload says so itself.
	const [coverTouched, setCoverTouched] = useState(false)
	const dirty = form.dirty || coverTouched
	const blocker = useBlocker(
		({ currentLocation, nextLocation }) => dirty && !submitting.current && currentLocation.pathname !== nextLocation.pathname,
	)
	useEffect(() => {
		if (!dirty) return
		const warn = (e: BeforeUnloadEvent) => {
			e.preventDefault()
			e.returnValue = ''
		}
		window.addEventListener('beforeunload', warn)
		return () => window.removeEventListener('beforeunload', warn)
	}, [dirty])

	// A refused form: the first field to fix gets the focus (and comes into view).
	const refused = lastResult?.status === 'error'
	useEffect(() => {
		if (!refused) return
		document.querySelector<HTMLElement>('#form-evenement [aria-invalid="true"]')?.focus()
	}, [lastResult, refused])

	const [deleteOpen, setDeleteOpen] = useState(false)
	const statusLabels = useStatusLabels()
	const statusValue = fields.status.value ?? values.status
	const publicUrl = event ? `/events/${event.id}` : null

	const header = (
		<>
			<Link to={LIST} className={linkClasses('quiet', 'mb-3 inline-flex min-h-11 items-center gap-1.5 text-sm no-underline sm:min-h-0')}>
				<ArrowLeft aria-hidden="true" className="size-4" />
				{t('admin.events.editor.back')}
			</Link>
			<PageHeader
				title={isNew ? t('admin.events.editor.newTitle') : event.title}
				description={
					<span className="flex flex-wrap items-center gap-2">
						{event ? (
							<>
								<Badge tone={event.published ? 'info' : 'neutral'}>
									{event.published ? t('admin.events.published') : t('admin.events.draft')}
								</Badge>
								<Badge tone={STATUS_TONES[event.status] ?? 'neutral'}>{statusLabels[event.status] ?? event.status}</Badge>
								<span className="text-sm">{t('admin.events.editor.updatedAt', { date: formatDateTime(event.updatedAt) })}</span>
							</>
						) : (
							<span>{t('admin.events.editor.newIntro')}</span>
						)}
					</span>
				}
				actions={
					publicUrl ? (
						<a href={publicUrl} target="_blank" rel="noopener" className={buttonClasses('secondary')}>
							<ExternalLink aria-hidden="true" />
							{t('admin.events.editor.viewPublic')}
							<span className="sr-only">{t('admin.events.editor.newTab')}</span>
						</a>
					) : null
				}
			/>
		</>
	)

	return (
		<>
			{header}
			<Form
				method="post"
				preventScrollReset
				// A focused field scrolls into view below the sticky bar, never under it.
				className="mt-8 flex flex-col gap-5 [&_input]:scroll-mt-28 [&_select]:scroll-mt-28 [&_textarea]:scroll-mt-28"
				{...getFormProps(form)}
				onSubmit={(e) => {
					submitting.current = true
					form.onSubmit(e)
				}}
			>
				<FormError id={form.errorId} errors={form.errors} />

				{/* Stays in view at the top while the form scrolls (the toasts, at the bottom, never cover it). */}
				<div className="sticky top-2 z-20 rounded-card border border-line bg-surface/95 px-4 py-3 shadow-pop backdrop-blur-sm sm:px-5">
					<div className="flex flex-wrap items-center justify-end gap-x-3 gap-y-2">
						<p className="flex basis-full items-center gap-2 text-sm empty:hidden sm:mr-auto sm:min-h-5 sm:basis-auto" aria-live="polite">
							{refused && !sending ? (
								<span className="font-medium text-danger">{t('admin.events.editor.refused')}</span>
							) : dirty ? (
								<>
									<span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-warning" />
									<span className="text-muted">{t('admin.events.editor.unsaved')}</span>
								</>
							) : event ? (
								<span className="hidden text-muted sm:inline">{t('admin.events.editor.allSaved')}</span>
							) : null}
						</p>
						<Button type="submit" name="intent" value="save" disabled={sending} className="flex-1 sm:flex-none">
							{sendingIntent === 'save'
								? t('admin.events.editor.saving')
								: isNew
									? t('admin.events.editor.saveDraft')
									: t('admin.events.editor.save')}
						</Button>
						{event?.published ? (
							<Button type="submit" name="intent" value="unpublish" variant="secondary" disabled={sending} className="flex-1 sm:flex-none">
								{sendingIntent === 'unpublish' ? t('admin.events.editor.saving') : t('admin.events.editor.unpublish')}
							</Button>
						) : (
							<Button type="submit" name="intent" value="publish" variant="secondary" disabled={sending} className="flex-1 sm:flex-none">
								{sendingIntent === 'publish' ? t('admin.events.editor.saving') : t('admin.events.editor.publish')}
							</Button>
						)}
					</div>
				</div>

				<Section
					id="informations"
					title={t('admin.events.editor.sections.info.title')}
					description={t('admin.events.editor.sections.info.description')}
				>
					<div className="flex flex-col gap-4">
						<Field label={t('admin.events.fields.title')} errors={fields.title.errors}>
							{(control) => <Input {...getInputProps(fields.title, { type: 'text' })} {...control} autoComplete="off" />}
						</Field>
						<div className="grid gap-4 sm:grid-cols-2">
							<Field label={t('admin.events.fields.status')} errors={fields.status.errors}>
								{(control) => (
									<Select {...getSelectProps(fields.status)} {...control}>
										{/* A required <select> starts with an empty option (HTML: its placeholder label option). */}
										<option value="" disabled>
											{t('admin.events.fields.statusPlaceholder')}
										</option>
										{STATUSES.map((status) => (
											<option key={status} value={status}>
												{statusLabels[status]}
											</option>
										))}
									</Select>
								)}
							</Field>
							{statusValue === 'postponed' ? (
								<Field
									label={t('admin.events.fields.previousStartsAt')}
									hint={t('admin.events.fields.previousStartsAtHint')}
									errors={fields.previousStartsAt.errors}
								>
									{(control) => <Input {...getInputProps(fields.previousStartsAt, { type: 'datetime-local' })} {...control} />}
								</Field>
							) : null}
						</div>
					</div>
				</Section>

				<Section
					id="horaires"
					title={t('admin.events.editor.sections.dates.title')}
					description={t('admin.events.editor.sections.dates.description')}
				>
					<div className="flex flex-col gap-4">
						<div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
							<Field label={t('admin.events.fields.startsAt')} errors={fields.startsAt.errors}>
								{(control) => <Input {...getInputProps(fields.startsAt, { type: 'datetime-local' })} {...control} />}
							</Field>
							<Field label={t('admin.events.fields.doorsAt')} optional={t('admin.events.optional')} errors={fields.doorsAt.errors}>
								{(control) => <Input {...getInputProps(fields.doorsAt, { type: 'datetime-local' })} {...control} />}
							</Field>
							<Field label={t('admin.events.fields.endsAt')} optional={t('admin.events.optional')} errors={fields.endsAt.errors}>
								{(control) => <Input {...getInputProps(fields.endsAt, { type: 'datetime-local' })} {...control} />}
							</Field>
						</div>
						<PastDateWarning
							startsAt={fields.startsAt.value}
							endsAt={fields.endsAt.value}
							storedStartsAt={isNew ? null : values.startsAt}
							defaultDurationMs={loaderData.defaultDurationMs}
						/>
					</div>
				</Section>

				<Section
					id="lieu"
					title={t('admin.events.editor.sections.place.title')}
					description={t('admin.events.editor.sections.place.description')}
				>
					<div className="flex flex-col gap-4">
						<Field label={t('admin.events.fields.venueName')} errors={fields.venueName.errors}>
							{(control) => <Input {...getInputProps(fields.venueName, { type: 'text' })} {...control} autoComplete="off" />}
						</Field>
						<Field label={t('admin.events.fields.address')} optional={t('admin.events.optional')} errors={fields.address.errors}>
							{(control) => <Input {...getInputProps(fields.address, { type: 'text' })} {...control} autoComplete="off" />}
						</Field>
						<div className="grid gap-4 sm:grid-cols-[11rem_minmax(0,1fr)]">
							<Field label={t('admin.events.fields.postalCode')} optional={t('admin.events.optional')} errors={fields.postalCode.errors}>
								{(control) => <Input {...getInputProps(fields.postalCode, { type: 'text' })} {...control} autoComplete="off" />}
							</Field>
							<Field label={t('admin.events.fields.city')} errors={fields.city.errors}>
								{(control) => <Input {...getInputProps(fields.city, { type: 'text' })} {...control} autoComplete="off" />}
							</Field>
						</div>
						<Field
							label={t('admin.events.fields.country')}
							hint={countryName(fields.country.value) ?? t('admin.events.fields.countryHint')}
							errors={fields.country.errors}
							className="max-w-xs"
						>
							{(control) => (
								<Input
									{...getInputProps(fields.country, { type: 'text' })}
									{...control}
									maxLength={2}
									autoCapitalize="characters"
									autoComplete="off"
									spellCheck={false}
									className="max-w-24 uppercase"
								/>
							)}
						</Field>
						<div className="grid gap-4 sm:grid-cols-2">
							<Field label={t('admin.events.fields.latitude')} optional={t('admin.events.optional')} errors={fields.latitude.errors}>
								{(control) => (
									<Input {...getInputProps(fields.latitude, { type: 'text' })} {...control} inputMode="decimal" autoComplete="off" />
								)}
							</Field>
							<Field label={t('admin.events.fields.longitude')} optional={t('admin.events.optional')} errors={fields.longitude.errors}>
								{(control) => (
									<Input {...getInputProps(fields.longitude, { type: 'text' })} {...control} inputMode="decimal" autoComplete="off" />
								)}
							</Field>
						</div>
						<p className="-mt-1 text-sm text-muted">{t('admin.events.fields.coordinatesHint')}</p>
					</div>
				</Section>

				<Section
					id="billetterie"
					title={t('admin.events.editor.sections.tickets.title')}
					description={t('admin.events.editor.sections.tickets.description')}
				>
					<div className="flex flex-col gap-4">
						<Field label={t('admin.events.fields.ticketUrl')} optional={t('admin.events.optional')} errors={fields.ticketUrl.errors}>
							{(control) => (
								<Input
									{...getInputProps(fields.ticketUrl, { type: 'url' })}
									{...control}
									inputMode="url"
									placeholder="https://"
									autoComplete="off"
									spellCheck={false}
								/>
							)}
						</Field>
						<Field
							label={t('admin.events.fields.priceText')}
							optional={t('admin.events.optional')}
							hint={t('admin.events.fields.priceTextHint')}
							errors={fields.priceText.errors}
						>
							{(control) => <Input {...getInputProps(fields.priceText, { type: 'text' })} {...control} autoComplete="off" />}
						</Field>
					</div>
				</Section>

				<Section
					id="description"
					title={t('admin.events.editor.sections.description.title')}
					description={t('admin.events.editor.sections.description.description')}
				>
					<DescriptionEditor
						field={fields.description}
						initialHtml={loaderData.descriptionHtml}
						storedValue={values.description}
						max={loaderData.limits.description}
					/>
				</Section>

				<Section
					id="couverture"
					title={t('admin.events.editor.sections.cover.title')}
					description={t('admin.events.editor.sections.cover.description')}
				>
					<CoverField initial={loaderData.cover} errors={fields.coverId.errors} onChange={() => setCoverTouched(true)} />
				</Section>

				<Section
					id="publication"
					title={t('admin.events.editor.sections.publication.title')}
					description={t('admin.events.editor.sections.publication.description')}
				>
					<div className="flex flex-col items-start gap-4">
						<p className="text-sm">
							{event === null
								? t('admin.events.editor.stateNew')
								: event.published
									? t('admin.events.editor.statePublished', { date: event.publishedAt ? formatDateTime(event.publishedAt) : '' })
									: t('admin.events.editor.stateDraft')}
						</p>
						{publicUrl ? (
							<a
								href={publicUrl}
								target="_blank"
								rel="noopener"
								className={linkClasses('default', 'inline-flex items-center gap-1.5 text-sm')}
							>
								{event?.published ? t('admin.events.editor.viewPublic') : t('admin.events.editor.previewPublic')}
								<ExternalLink aria-hidden="true" className="size-4" />
								<span className="sr-only">{t('admin.events.editor.newTab')}</span>
							</a>
						) : null}
						{event ? (
							<div className="w-full border-t border-line pt-4">
								<Button
									variant="secondary"
									onClick={() => setDeleteOpen(true)}
									aria-haspopup="dialog"
									className="text-danger hover:border-danger"
								>
									<Trash2 aria-hidden="true" />
									{t('admin.events.delete.open')}
								</Button>
							</div>
						) : null}
					</div>
				</Section>
			</Form>

			{event ? <EventSetlistPanel eventId={event.id} /> : null}

			{event ? <DeleteDialog open={deleteOpen} onClose={() => setDeleteOpen(false)} title={event.title} /> : null}

			<Dialog
				open={blocker.state === 'blocked'}
				onClose={() => blocker.reset?.()}
				title={t('admin.events.editor.leave.title')}
				description={t('admin.events.editor.leave.body')}
				size="sm"
				actions={
					<>
						<Button variant="secondary" onClick={() => blocker.reset?.()}>
							{t('admin.events.editor.leave.stay')}
						</Button>
						<Button variant="danger" onClick={() => blocker.proceed?.()}>
							{t('admin.events.editor.leave.leave')}
						</Button>
					</>
				}
			/>
		</>
	)
}

/** One group of fields: what it is about on the left (above on a phone), its fields on the right. */
function Section(props: { id: string; title: ReactNode; description: ReactNode; children: ReactNode }) {
	return (
		<Card as="section" id={props.id} aria-labelledby={`${props.id}-titre`} className="scroll-mt-6">
			<div className="grid gap-x-10 gap-y-5 lg:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]">
				<div>
					<CardTitle id={`${props.id}-titre`}>{props.title}</CardTitle>
					<p className="mt-1.5 text-sm text-muted">{props.description}</p>
				</div>
				<div className="min-w-0">{props.children}</div>
			</div>
		</Card>
	)
}

/** The statuses' words, written out per status so that every key stays visible to the i18n check. */
function useStatusLabels(): Record<string, string> {
	const { t } = useTranslation()
	return {
		scheduled: t('admin.events.status.scheduled'),
		sold_out: t('admin.events.status.sold_out'),
		postponed: t('admin.events.status.postponed'),
		cancelled: t('admin.events.status.cancelled'),
	}
}

/**
 * « Cette date est passée… »: shown while the start typed (a new event's, or a changed one) puts
 * the show among the past ones. Saving is still allowed: the band may archive old concerts.
 */
function PastDateWarning(props: { startsAt?: string; endsAt?: string; storedStartsAt: string | null; defaultDurationMs: number }) {
	const { t } = useTranslation()
	const start = props.startsAt ? parisWallClockToInstant(props.startsAt) : null
	const end = props.endsAt ? parisWallClockToInstant(props.endsAt) : null
	const changed = props.storedStartsAt === null || props.startsAt !== props.storedStartsAt
	const over = start !== null && (end ?? new Date(start.getTime() + props.defaultDurationMs)).getTime() < Date.now()
	if (!changed || !over) return null
	return (
		<p role="status" className="flex items-start gap-2.5 rounded-control border border-warning/45 bg-warning/10 px-3.5 py-2.5 text-sm">
			<AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
			<span>{t('admin.events.editor.pastWarning')}</span>
		</p>
	)
}

type DescriptionField = ReturnType<typeof useForm<EventFormInput>>[1]['description']

/** The Markdown text and its preview, rendered by the server (the browser never loads a Markdown library). */
function DescriptionEditor(props: { field: DescriptionField; initialHtml: string; storedValue: string; max: number }) {
	const { t } = useTranslation()
	const fetcher = useFetcher<typeof action>()
	const value = props.field.value ?? ''
	const previewed = useRef(props.storedValue)
	const [html, setHtml] = useState(props.initialHtml)

	useEffect(() => {
		if (value === previewed.current) return
		const timer = setTimeout(() => {
			previewed.current = value
			void fetcher.submit({ intent: 'preview', description: value }, { method: 'post', defaultShouldRevalidate: false })
		}, 400)
		return () => clearTimeout(timer)
		// Only the text matters: the fetcher is the same one from render to render.
	}, [value])

	const answer = fetcher.data
	useEffect(() => {
		if (answer && 'html' in answer) setHtml(answer.html)
	}, [answer])

	const length = useMemo(() => value.replace(/\r\n?/g, '\n').length, [value])
	const counterId = `${props.field.id}-compteur`
	return (
		<div className="grid gap-5 xl:grid-cols-2">
			<Field
				label={t('admin.events.fields.description')}
				optional={t('admin.events.optional')}
				hint={t('admin.events.fields.descriptionHint')}
				errors={props.field.errors}
			>
				{(control) => (
					<>
						<Textarea
							{...getTextareaProps(props.field)}
							{...control}
							aria-describedby={clsx(control['aria-describedby'], counterId)}
							rows={12}
							className="min-h-64 font-mono text-sm leading-relaxed"
						/>
						<p
							id={counterId}
							className={clsx('text-right text-xs tabular-nums', length > props.max ? 'font-semibold text-danger' : 'text-muted')}
						>
							{t('admin.events.fields.descriptionCount', {
								length: length.toLocaleString('fr-FR'),
								max: props.max.toLocaleString('fr-FR'),
							})}
						</p>
					</>
				)}
			</Field>
			<div className="flex min-w-0 flex-col gap-1.5">
				<p className="flex items-center gap-2 text-sm font-semibold text-fg">
					{t('admin.events.editor.preview')}
					{fetcher.state !== 'idle' ? <span className="font-normal text-muted">{t('admin.events.editor.previewUpdating')}</span> : null}
				</p>
				<div className="min-h-64 rounded-control border border-dashed border-line-strong/70 bg-canvas/40 px-4 py-3">
					{html ? (
						<div className="prose-site text-[0.9375rem]" dangerouslySetInnerHTML={{ __html: html }} />
					) : (
						<p className="text-sm text-muted">{t('admin.events.editor.previewEmpty')}</p>
					)}
				</div>
			</div>
		</div>
	)
}

const COVER_STATUS_URL = '/dashboard/admin/media/'

/**
 * The cover: the upload field, starting from the stored image. A cover still being prepared (saved
 * right after its upload) keeps its id in the form and is followed until it is ready, so that the
 * next save never drops it.
 */
function CoverField(props: { initial: MediaStatus | null; errors?: string[]; onChange: () => void }) {
	const { t } = useTranslation()
	const [status, setStatus] = useState(props.initial)
	const processingId = status?.status === 'processing' ? status.id : null

	useEffect(() => {
		if (!processingId) return
		let cancelled = false
		let timer: ReturnType<typeof setTimeout>
		const check = async () => {
			try {
				const response = await fetch(COVER_STATUS_URL + processingId, { headers: { Accept: 'application/json' }, cache: 'no-store' })
				if (response.ok) {
					const next = (await response.json()) as MediaStatus
					if (!cancelled) setStatus(next)
					if (next.status !== 'processing') return
				}
			} catch {
				// A network hiccup: ask again at the next tick.
			}
			if (!cancelled) timer = setTimeout(check, 1500)
		}
		timer = setTimeout(check, 1000)
		return () => {
			cancelled = true
			clearTimeout(timer)
		}
	}, [processingId])

	if (status?.status === 'processing') {
		return (
			<div className="flex flex-col gap-2">
				<span className="text-sm font-semibold text-fg">{t('admin.events.fields.cover')}</span>
				<div className="grid aspect-video w-full max-w-xl place-items-center rounded-control border border-line bg-raised">
					<p role="status" className="text-sm text-muted">
						{t('media.upload.processing')} {t('media.upload.percent', { percent: status.progress })}
					</p>
				</div>
				<input type="hidden" name="coverId" value={status.id} />
			</div>
		)
	}
	const ready = status?.status === 'ready' && status.image ? { ...status.image, id: status.id } : null
	return (
		<div className="flex flex-col gap-3">
			{status?.status === 'failed' ? <p className="text-sm text-muted">{t('admin.events.editor.coverFailed')}</p> : null}
			<ImageUpload
				key={ready?.id ?? 'vide'}
				name="coverId"
				kind="cover"
				label={t('admin.events.fields.cover')}
				initial={ready}
				errors={props.errors}
				sizes="(min-width: 64rem) 36rem, 100vw"
				onChange={props.onChange}
			/>
		</div>
	)
}

function DeleteDialog(props: { open: boolean; onClose: () => void; title: string }) {
	const navigation = useNavigation()
	const deleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'
	return (
		<>
			{/* Outside the dialog (its button names it): an empty body would leave a gap in the dialog. */}
			<Form method="post" id="form-suppression-evenement" hidden>
				<input type="hidden" name="intent" value="delete" />
			</Form>
			<DeleteConfirmation {...props} deleting={deleting} />
		</>
	)
}

function DeleteConfirmation(props: { open: boolean; onClose: () => void; title: string; deleting: boolean }) {
	const { t } = useTranslation()
	const { deleting } = props
	return (
		<Dialog
			open={props.open}
			onClose={props.onClose}
			title={t('admin.events.delete.dialogTitle', { title: props.title })}
			description={t('admin.events.delete.dialogBody')}
			size="sm"
			actions={
				<>
					<Button variant="secondary" onClick={props.onClose}>
						{t('admin.events.delete.cancel')}
					</Button>
					<Button type="submit" variant="danger" form="form-suppression-evenement" disabled={deleting}>
						{deleting ? t('admin.events.delete.deleting') : t('admin.events.delete.confirm')}
					</Button>
				</>
			}
		/>
	)
}

/** Inside the admin's frame: an unknown event is a 404 with a way back to the list. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	const { t } = useTranslation()
	const status = isRouteErrorResponse(error) ? error.status : 500
	const [title, body] =
		status === 404
			? [t('admin.events.notFound.title'), t('admin.events.notFound.body')]
			: status === 403
				? [t('errors.forbidden.title'), t('errors.forbidden.body')]
				: status < 500
					? [t('errors.badRequest.title'), t('errors.badRequest.body')]
					: [t('errors.server.title'), t('errors.server.body')]
	return (
		<>
			<title>{title}</title>
			<PageHeader title={title} description={body} />
			<Link to={LIST} className={buttonClasses('secondary', 'md', 'mt-6')}>
				<ArrowLeft aria-hidden="true" />
				{t('admin.events.editor.back')}
			</Link>
		</>
	)
}
