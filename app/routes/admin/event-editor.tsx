import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { Route } from './+types/event-editor'
import { ScreenError } from '#app/components/screen-error.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import {
	coverExists,
	createEvent,
	deleteEvent,
	getEventForEditor,
	updateEvent,
	type OnFirstPublication,
} from '#app/features/events/admin.server.ts'
import { prepareAnnouncement, type Preparation } from '#app/features/newsletter/prepared.server.ts'
import { EventEditorForm } from '#app/features/events/editor/event-editor-form.tsx'
import { eventEditorData, previewDescription, savedFlash } from '#app/features/events/editor.server.ts'
import { isPastEvent } from '#app/features/events/events.server.ts'
import { EVENT_FORM_MESSAGES, EventFormSchema, eventValuesFrom } from '#app/features/events/forms.ts'
import { EVENT_LIST_PATH as LIST } from '#app/features/events/list/list-url.ts'
import { venuePlace } from '#app/features/events/venue-place.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb, getPlatform } from '#app/platform/platform.server.ts'
import { httpError } from '#app/platform/http-error.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.events', 'events.status', 'media', 'setlist', 'newsletter.announce')

/*
 * The event editor, /dashboard/admin/events/:eventId (`new` for an event not stored yet). The form
 * is features/events/editor; this module loads the event, saves, previews and deletes. An unknown
 * id is a 404 shown inside the admin.
 */

const NEW = 'new'
const SAVE_INTENTS = ['save', 'publish', 'unpublish'] as const
type SaveIntent = (typeof SAVE_INTENTS)[number]

export function meta({ loaderData }: Route.MetaArgs) {
	// After a refused POST there is no loader data: the error boundary's own <title> names the page.
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const t = getT()
	const db = await getDb()
	const isNew = params.eventId === NEW
	const row = isNew ? null : await getEventForEditor(db, params.eventId)
	if (!isNew && !row) throw httpError(404, { reason: 'not-found' })
	return {
		title: pageTitle(row ? t('admin.events.editor.metaTitle', { title: row.title }) : t('admin.events.editor.newTitle')),
		...(await eventEditorData(db, row)),
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const formData = await request.formData()
	const intent = String(formData.get('intent') ?? '')
	const isNew = params.eventId === NEW
	const db = await getDb()

	if (intent === 'preview') {
		return { intent: 'preview' as const, html: previewDescription(String(formData.get('description') ?? '')) }
	}

	if (intent === 'delete') {
		const deleted = isNew ? null : await deleteEvent(db, params.eventId)
		if (!deleted) return redirectWithFlash(LIST, { type: 'info', key: 'admin.events.flash.alreadyDeleted' })
		return redirectWithFlash(LIST, { type: 'success', key: 'admin.events.flash.deleted', values: { title: deleted.title } })
	}

	if (!SAVE_INTENTS.includes(intent as SaveIntent)) {
		// A validation request (Conform's, from a browser asking the server to check a field): answered, never saved.
		if (formData.has('__intent__')) {
			return data({ intent: 'save' as const, result: parseWithZod(formData, { schema: EventFormSchema }).reply() }, { status: 400 })
		}
		throw httpError(400, { reason: 'unknown-intent' })
	}
	const existing = isNew ? null : await getEventForEditor(db, params.eventId)
	if (!isNew && !existing) throw httpError(404, { reason: 'not-found' })

	const submission = parseWithZod(formData, { schema: EventFormSchema })
	if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
	const choice = formData.get('venueTown')
	const placed = venuePlace(eventValuesFrom(submission.value), existing, typeof choice === 'string' && choice ? choice : null)
	if (placed.status === 'ambiguous') {
		const cityError = { city: [getT()('admin.events.place.ambiguous', { city: submission.value.city })] }
		return data({ intent, result: submission.reply({ fieldErrors: cityError }), venueChoices: placed.choices }, { status: 400 })
	}
	const values = { ...eventValuesFrom(submission.value), ...placed.place }
	if (values.coverId && values.coverId !== existing?.coverId && !(await coverExists(db, values.coverId))) {
		return data({ intent, result: submission.reply({ fieldErrors: { coverId: [EVENT_FORM_MESSAGES.cover()] } }) }, { status: 400 })
	}

	const publish = intent === 'publish' ? true : intent === 'unpublish' ? false : undefined
	// A first publication may prepare its announcement (a setting), never for a show already past.
	let preparation: Preparation = 'none'
	const { env } = await getPlatform()
	const onFirstPublication: OnFirstPublication | undefined = isPastEvent(values)
		? undefined
		: async (tx, eventId) => (preparation = await prepareAnnouncement(tx, env, eventId, admin.id))
	let id: string
	if (existing) {
		if (!(await updateEvent(db, existing.id, values, admin.id, { publish, onFirstPublication })))
			throw httpError(404, { reason: 'not-found' })
		id = existing.id
	} else {
		id = await createEvent(db, values, admin.id, { publish: publish === true, onFirstPublication })
	}
	// A date in the past is allowed (an archive of old shows), with a word of warning when it is new.
	const dateChanged = !existing || existing.startsAt.getTime() !== values.startsAt.getTime()
	const inPast = dateChanged && isPastEvent(values)
	return redirectWithFlash(`${LIST}/${id}`, savedFlash({ created: !existing, publish, inPast, preparation }))
}

export default function EventEditor({ loaderData, actionData }: Route.ComponentProps) {
	const lastResult = actionData && 'result' in actionData ? actionData.result : undefined
	const venueChoices = actionData && 'venueChoices' in actionData ? (actionData.venueChoices as string[]) : undefined
	return <EventEditorForm key={loaderData.formKey} loaderData={loaderData} lastResult={lastResult} venueChoices={venueChoices} />
}

/** Inside the admin's frame: an unknown event is a 404 with a way back to the list. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	const { t } = useTranslation()
	return (
		<ScreenError
			error={error}
			notFound={{ title: t('admin.events.notFound.title'), body: t('admin.events.notFound.body') }}
			back={{ to: LIST, label: t('admin.events.editor.back') }}
		/>
	)
}
