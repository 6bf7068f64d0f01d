import { CalendarDays, ExternalLink, Eye, EyeOff } from '#app/components/icons.tsx'
import { useId } from 'react'
import { Form } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { FieldError } from '#app/components/ui/field-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { formatDate, formatDateTime } from '#app/platform/time-zone.ts'
import { useTranslation } from '#app/i18n/react.tsx'

/*
 * The setlist's show and its publication, on the setlist's screen: attach it to an event (one
 * setlist per event; an event that has another is named, never silently taken), then, after the
 * show, publish it on the event's page.
 */
export function SetlistEventCard(props: {
	setlist: { id: string; published: boolean; event: { id: string; title: string; startsAt: string; city: string } | null }
	events: Array<{ id: string; title: string; startsAt: string; city: string; setlistId: string | null; setlistName: string | null }>
	error: string | null
	publishError?: string | null
	busy: boolean
	/** The version the builder shows: the one published (the server refuses if it moved). */
	version?: number
	/** The builder has unsaved changes: publishing waits for them to be saved. */
	unsaved?: boolean
	/** The attached concert has not begun (told by the server's clock). */
	notStarted?: boolean
}) {
	const { t } = useTranslation()
	const selectId = useId()
	const errorId = `${selectId}-erreur`
	const publishNoteId = `${selectId}-publication`
	const { setlist } = props
	// A setlist says what was played: it is published once the concert has begun.
	const startsAt = setlist.event ? new Date(setlist.event.startsAt) : null
	const notStarted = startsAt !== null && Boolean(props.notStarted)
	const publishBlocked = !setlist.published && (notStarted || Boolean(props.unsaved))
	return (
		<Card as="section" aria-labelledby="concert-titre" className="mt-8">
			<div className="grid gap-x-10 gap-y-5 lg:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]">
				<div>
					<CardTitle id="concert-titre">{t('setlist.event.title')}</CardTitle>
					<p className="mt-1.5 text-sm text-muted">{t('setlist.event.description')}</p>
				</div>
				<div className="flex min-w-0 flex-col gap-5">
					<Form method="post" className="flex flex-col gap-2">
						<label htmlFor={selectId} className="text-sm font-semibold">
							{t('setlist.event.label')}
						</label>
						<div className="flex flex-wrap gap-2">
							<Select
								id={selectId}
								name="eventId"
								defaultValue={setlist.event?.id ?? ''}
								key={setlist.event?.id ?? ''}
								aria-invalid={props.error ? true : undefined}
								aria-describedby={props.error ? errorId : undefined}
								className="min-w-0 flex-1 basis-64"
							>
								<option value="">{t('setlist.event.none')}</option>
								{props.events.map((event) => (
									<option key={event.id} value={event.id}>
										{formatDate(event.startsAt)} · {event.title} ({event.city})
										{event.setlistId && event.setlistId !== setlist.id
											? ` — ${t('setlist.event.hasOther', { name: event.setlistName ?? '' })}`
											: ''}
									</option>
								))}
							</Select>
							<Button type="submit" name="intent" value="attach" variant="secondary" disabled={props.busy}>
								<CalendarDays aria-hidden="true" />
								{t('setlist.event.attach')}
							</Button>
						</div>
						{props.error ? <FieldError id={errorId} errors={[props.error]} /> : null}
					</Form>
					{setlist.event ? (
						<a
							href={`/dashboard/admin/events/${setlist.event.id}`}
							className={linkClasses('default', 'inline-flex items-center gap-1.5 text-sm')}
						>
							{t('setlist.event.openEvent', { title: setlist.event.title })}
						</a>
					) : null}

					<div className="border-t border-line pt-4">
						<p className="text-sm">
							{setlist.published
								? setlist.event
									? notStarted
										? t('setlist.event.statePublishedLater')
										: t('setlist.event.statePublished')
									: t('setlist.event.statePublishedNoEvent')
								: t('setlist.event.stateDraft')}
						</p>
						<Form method="post" className="mt-3 flex flex-wrap items-center gap-3">
							{props.version !== undefined ? <input type="hidden" name="version" value={props.version} /> : null}
							{setlist.published ? (
								<Button type="submit" name="intent" value="unpublish" variant="secondary" disabled={props.busy}>
									<EyeOff aria-hidden="true" />
									{t('setlist.event.unpublish')}
								</Button>
							) : (
								<Button
									type="submit"
									name="intent"
									value="publish"
									disabled={props.busy || publishBlocked}
									aria-describedby={publishBlocked ? publishNoteId : undefined}
								>
									<Eye aria-hidden="true" />
									{t('setlist.event.publish')}
								</Button>
							)}
							{setlist.published && setlist.event ? (
								<a
									href={`/events/${setlist.event.id}`}
									target="_blank"
									rel="noopener"
									className={linkClasses('default', 'inline-flex items-center gap-1.5 text-sm')}
								>
									{t('setlist.event.viewPublic')}
									<ExternalLink aria-hidden="true" className="size-4" />
									<span className="sr-only">{t('setlist.newTab')}</span>
								</a>
							) : null}
						</Form>
						{!setlist.published && props.unsaved ? (
							<p id={publishNoteId} className="mt-2 text-sm font-medium text-warning">
								{t('setlist.event.saveFirst')}
							</p>
						) : !setlist.published && notStarted && startsAt ? (
							<p id={publishNoteId} className="mt-2 text-sm font-medium">
								{t('setlist.event.publishFrom', { date: formatDateTime(startsAt) })}
							</p>
						) : null}
						{props.publishError ? <FieldError id={`${selectId}-publication-erreur`} errors={[props.publishError]} /> : null}
						<p className="mt-2 text-xs text-muted">{t('setlist.event.publishHint')}</p>
					</div>
				</div>
			</div>
		</Card>
	)
}
