import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react'
import { ArrowLeft, ExternalLink, Trash2 } from '#app/components/icons.tsx'
import { useEffect, useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { UnsavedChangesDialog, useUnsavedChanges } from '#app/components/forms/unsaved-changes.tsx'
import { validateInBrowser } from '#app/components/forms/validate-in-browser.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Section } from '#app/components/ui/section.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { countryName, EventFormSchema, type EventFormInput } from '#app/features/events/forms.ts'
import { EVENT_LIST_PATH as LIST } from '#app/features/events/list/list-url.ts'
import { EVENT_STATUSES } from '#app/features/events/status.tsx'
import { EventStatusTag, useEventStatusLabels } from '#app/features/events/status-tag.tsx'
import { EventSetlistPanel } from '#app/features/setlist/event-setlist-panel.tsx'
import { formatDateTime } from '#app/platform/time-zone.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { CoverField } from './cover-field.tsx'
import { DeleteDialog } from './delete-dialog.tsx'
import { DescriptionEditor } from './description-editor.tsx'
import { PastDateWarning } from './past-date-warning.tsx'
import type { EventEditorData } from './types.ts'

/*
 * The event editor's form: every field of the public page in groups, dates in Paris time, a live
 * Markdown preview rendered by the server, the cover, and publication. Every button saves the whole
 * form first (« Publier » saves and publishes), so nothing typed is lost; a refused form keeps
 * everything typed, with its French messages next to the fields.
 */

export function EventEditorForm({
	loaderData,
	lastResult,
	venueChoices,
}: {
	loaderData: EventEditorData
	lastResult?: SubmissionResult<string[]>
	/** The towns of the venue's city name, when the save asked which. */
	venueChoices?: string[]
}) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const { event, values } = loaderData
	const isNew = event === null
	const [form, fields] = useForm<EventFormInput>({
		id: 'form-evenement',
		lastResult,
		constraint: loaderData.constraint,
		defaultValue: values,
		...validateInBrowser(EventFormSchema),
	})
	const sendingIntent =
		navigation.state !== 'idle' && navigation.formMethod === 'POST' ? String(navigation.formData?.get('intent') ?? '') : null
	const sending = sendingIntent !== null && sendingIntent !== 'delete'

	// The cover's hidden input changes without an input event: the upload says so itself.
	const [coverTouched, setCoverTouched] = useState(false)
	const dirty = form.dirty || coverTouched
	const { blocker, markSubmitting } = useUnsavedChanges(dirty)

	// A refused form (by the browser's check or by the server): the first field to fix gets the focus.
	const refused = form.status === 'error'
	useEffect(() => {
		if (!refused) return
		document.querySelector<HTMLElement>('#form-evenement [aria-invalid="true"]')?.focus()
	}, [lastResult, refused])

	const [deleteOpen, setDeleteOpen] = useState(false)
	const statusLabels = useEventStatusLabels()
	const statusValue = fields.status.value ?? values.status
	const publicUrl = event ? `/events/${event.id}` : null

	const header = (
		<>
			<Link to={LIST} className={linkClasses('quiet', 'mb-3 inline-flex min-h-11 items-center gap-1.5 text-sm sm:min-h-0')}>
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
								<EventStatusTag status={event.status} />
								<span className="text-sm">{t('admin.events.editor.updatedAt', { date: formatDateTime(event.updatedAt) })}</span>
							</>
						) : (
							<span>{t('admin.events.editor.newIntro')}</span>
						)}
					</span>
				}
				actions={
					publicUrl ? (
						<>
							<a href={publicUrl} target="_blank" rel="noopener" className={buttonClasses('secondary')}>
								<ExternalLink aria-hidden="true" />
								{t('admin.events.editor.viewPublic')}
								<span className="sr-only">{t('admin.events.editor.newTab')}</span>
							</a>
							{event ? (
								<Link to={`/dashboard/admin/newsletter/campaigns/new?event=${event.id}`} className={buttonClasses('primary')}>
									{t('newsletter.announce.button')}
								</Link>
							) : null}
						</>
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
					form.onSubmit(e)
					markSubmitting(e)
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
										{EVENT_STATUSES.map((status) => (
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
						<VenuePlaceNote place={loaderData.place} choices={venueChoices} />
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

			<UnsavedChangesDialog blocker={blocker} body={t('admin.events.editor.leave.body')} />
		</>
	)
}

/** Where the coordinates come from, the map link they give, and the namesakes to pick from when the save asked. */
function VenuePlaceNote(props: { place: EventEditorData['place']; choices?: string[] }) {
	const { t } = useTranslation()
	const { place, choices } = props
	return (
		<>
			{choices && choices.length > 0 ? (
				<fieldset className="flex flex-col gap-1 rounded-control border border-line p-3">
					<legend className="px-1 text-sm font-semibold">{t('admin.events.place.choose')}</legend>
					{choices.map((label) => (
						<label key={label} className="flex min-h-11 items-center gap-2 text-sm">
							<input type="radio" name="venueTown" value={label} className="size-4" />
							{label}
						</label>
					))}
				</fieldset>
			) : null}
			{place ? (
				<p className="text-sm" role="status">
					{place.source === 'town' && place.townLabel
						? t('admin.events.place.fromTown', { town: place.townLabel })
						: place.source === 'manual'
							? t('admin.events.place.manual')
							: place.source === 'unresolved'
								? t('admin.events.place.unresolved')
								: t('admin.events.place.pending')}{' '}
					{place.mapUrl ? (
						<a href={place.mapUrl} target="_blank" rel="noopener noreferrer" className={linkClasses()}>
							{t('admin.events.place.map')}
						</a>
					) : null}
				</p>
			) : null}
		</>
	)
}
