import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft, Copy, MonitorSmartphone, Printer } from '#app/components/icons.tsx'
import { useState } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/builder'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { ScreenError } from '#app/components/screen-error.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { SetlistSaveSchema } from '#app/features/setlist/forms.ts'
import { SetlistBuilder, type SaveAnswer } from '#app/features/setlist/setlist-builder.tsx'
import { SetlistEventCard } from '#app/features/setlist/setlist-event-card.tsx'
import {
	attachSetlist,
	duplicateSetlist,
	eventsForAttach,
	getSetlist,
	saveSetlist,
	setSetlistPublished,
} from '#app/features/setlist/setlists.server.ts'
import { songsForPicker } from '#app/features/setlist/songs.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { formatDateTime } from '#app/platform/time-zone.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('setlist')

/*
 * One setlist: the builder (order, breaks, notes, durations), its event and its publication, and
 * the ways to the stage (print, full screen). Saves carry the version they started from.
 */

const LIST = '/dashboard/admin/setlist'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const db = await getDb()
	const setlist = await getSetlist(db, params.setlistId)
	if (!setlist) throw data({ reason: 'not-found' }, { status: 404 })
	const [songs, events] = await Promise.all([songsForPicker(db), eventsForAttach(db)])
	return {
		title: pageTitle(getT()('setlist.builder.metaTitle', { name: setlist.name })),
		setlist,
		songs,
		events,
		// Publishing waits for the show (the server checks again when asked).
		notStarted: setlist.event ? new Date(setlist.event.startsAt).getTime() > Date.now() : false,
		constraint: getZodConstraint(SetlistSaveSchema),
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const db = await getDb()
	const formData = await request.formData()
	const intent = String(formData.get('intent') ?? '')
	const here = `${LIST}/${params.setlistId}`

	if (intent === 'save') {
		const submission = parseWithZod(formData, { schema: SetlistSaveSchema })
		if (submission.status !== 'success') {
			return data({ intent: 'save', ok: false, reason: 'invalid', result: submission.reply() } satisfies SaveAnswer, { status: 400 })
		}
		const result = await saveSetlist(db, params.setlistId, submission.value, admin.id)
		if (result.ok) return { intent: 'save', ok: true, version: result.version } satisfies SaveAnswer
		if (result.reason === 'not-found') throw data({ reason: 'not-found' }, { status: 404 })
		return data({ intent: 'save', ok: false, reason: result.reason, current: result.current } satisfies SaveAnswer, { status: 409 })
	}
	if (intent === 'attach') {
		const eventId = String(formData.get('eventId') ?? '')
		const result = await attachSetlist(db, params.setlistId, eventId === '' ? null : eventId)
		if (result.ok && eventId) return redirectWithFlash(here, { type: 'success', key: 'setlist.flash.attached' })
		if (result.ok) return redirectWithFlash(here, { type: 'success', key: 'setlist.flash.detached' })
		if (result.reason === 'not-found') throw data({ reason: 'not-found' }, { status: 404 })
		return data(
			{
				intent: 'attach' as const,
				error:
					result.reason === 'event-taken' ? getT()('setlist.event.taken', { name: result.takenBy ?? '' }) : getT()('setlist.event.unknown'),
			},
			{ status: 400 },
		)
	}
	if (intent === 'publish' || intent === 'unpublish') {
		// The builder sends the version it shows: what the admin sees is what gets published.
		const version = Number(formData.get('version') ?? Number.NaN)
		const result = await setSetlistPublished(db, params.setlistId, intent === 'publish', {
			version: Number.isSafeInteger(version) ? version : undefined,
		})
		if (!result.ok && result.reason === 'not-found') throw data({ reason: 'not-found' }, { status: 404 })
		if (!result.ok) {
			const error =
				result.reason === 'not-started'
					? getT()('setlist.event.notStarted', { date: formatDateTime(result.startsAt) })
					: getT()('setlist.event.stalePublish')
			return data({ intent: 'publish' as const, error }, { status: result.reason === 'stale' ? 409 : 400 })
		}
		if (intent === 'publish') return redirectWithFlash(here, { type: 'success', key: 'setlist.flash.published' })
		return redirectWithFlash(here, { type: 'success', key: 'setlist.flash.unpublished' })
	}
	if (intent === 'duplicate') {
		const copy = await duplicateSetlist(db, params.setlistId, admin.id, (name) => getT()('setlist.copyName', { name }))
		if (!copy) throw data({ reason: 'not-found' }, { status: 404 })
		return redirectWithFlash(`${LIST}/${copy}`, { type: 'success', key: 'setlist.flash.duplicated' })
	}
	throw data({ reason: 'unknown-intent' }, { status: 400 })
}

export default function SetlistScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { setlist } = loaderData
	const navigation = useNavigation()
	const busy = navigation.state !== 'idle'
	const attachError = actionData && 'error' in actionData && actionData.intent === 'attach' ? actionData.error : null
	const publishError = actionData && 'error' in actionData && actionData.intent === 'publish' ? actionData.error : null
	// What the builder holds: the version it shows, and whether it has unsaved changes (no publishing then).
	const [builderState, setBuilderState] = useState({ version: setlist.version, dirty: false })
	return (
		<>
			<Link to={LIST} className={linkClasses('quiet', 'mb-3 inline-flex min-h-11 items-center gap-1.5 text-sm sm:min-h-0')}>
				<ArrowLeft aria-hidden="true" className="size-4" />
				{t('setlist.builder.back')}
			</Link>
			<PageHeader
				title={setlist.name}
				description={
					<span className="flex flex-wrap items-center gap-2">
						<Badge tone={setlist.published ? 'info' : 'neutral'}>
							{setlist.published ? t('setlist.published') : t('setlist.unpublished')}
						</Badge>
						<span className="text-sm">{t('setlist.builder.updatedAt', { date: formatDateTime(setlist.updatedAt) })}</span>
					</span>
				}
				actions={
					<div className="flex flex-wrap gap-2">
						<a href={`${LIST}/${setlist.id}/print`} target="_blank" rel="noopener" className={buttonClasses('secondary', 'sm')}>
							<Printer aria-hidden="true" />
							{t('setlist.builder.print')}
							<span className="sr-only">{t('setlist.newTab')}</span>
						</a>
						<a href={`${LIST}/${setlist.id}/stage`} target="_blank" rel="noopener" className={buttonClasses('secondary', 'sm')}>
							<MonitorSmartphone aria-hidden="true" />
							{t('setlist.builder.stage')}
							<span className="sr-only">{t('setlist.newTab')}</span>
						</a>
						<Form method="post">
							<Button type="submit" name="intent" value="duplicate" size="sm" variant="ghost" disabled={busy}>
								<Copy aria-hidden="true" />
								{t('setlist.builder.duplicate')}
							</Button>
						</Form>
					</div>
				}
			/>
			<SetlistBuilder
				key={setlist.id}
				setlist={setlist}
				songs={loaderData.songs}
				constraint={loaderData.constraint}
				onStateChange={setBuilderState}
			/>
			<SetlistEventCard
				setlist={setlist}
				events={loaderData.events}
				error={attachError}
				publishError={publishError}
				busy={busy}
				version={builderState.version}
				unsaved={builderState.dirty}
				notStarted={loaderData.notStarted}
			/>
		</>
	)
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	const { t } = useTranslation()
	return (
		<ScreenError
			error={error}
			notFound={{ title: t('setlist.notFound.title'), body: t('setlist.notFound.body') }}
			back={{ to: LIST, label: t('setlist.builder.back') }}
		/>
	)
}
