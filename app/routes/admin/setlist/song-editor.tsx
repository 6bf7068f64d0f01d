import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft } from '#app/components/icons.tsx'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/song-editor'
import { UnsavedChangesDialog, useUnsavedChanges } from '#app/components/forms/unsaved-changes.tsx'
import { validateInBrowser } from '#app/components/forms/validate-in-browser.ts'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { ScreenError } from '#app/components/screen-error.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { formatDuration } from '#app/features/setlist/duration.ts'
import { SongFormSchema, SONG_LIMITS, type SongFormInput } from '#app/features/setlist/forms.ts'
import { createSong, getSong, updateSong } from '#app/features/setlist/songs.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('setlist')

/*
 * A song of the library, /dashboard/admin/setlist/songs/:songId (`new` for a new one): title,
 * original artist when it is a cover, duration as « 4:05 », key, tempo, notes. A refused form comes
 * back with its French errors next to the fields and everything that was typed; leaving with
 * unsaved changes asks first.
 */

const SONGS = '/dashboard/admin/setlist/songs'
const NEW = 'new'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const t = getT()
	const isNew = params.songId === NEW
	const song = isNew ? null : await getSong(await getDb(), params.songId)
	if (!isNew && !song) throw data({ reason: 'not-found' }, { status: 404 })
	const values: Required<{ [K in keyof SongFormInput]: string }> = {
		title: song?.title ?? '',
		originalArtist: song?.originalArtist ?? '',
		duration: song?.durationSeconds ? formatDuration(song.durationSeconds) : '',
		musicalKey: song?.musicalKey ?? '',
		tempo: song?.tempo ? String(song.tempo) : '',
		notes: song?.notes ?? '',
	}
	return {
		title: pageTitle(song ? t('setlist.song.metaTitle', { title: song.title }) : t('setlist.song.newTitle')),
		song: song ? { id: song.id, title: song.title, archived: song.archived } : null,
		values,
		constraint: getZodConstraint(SongFormSchema),
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	await requireAdmin(request)
	const db = await getDb()
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: SongFormSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	if (params.songId === NEW) {
		await createSong(db, submission.value)
		return redirectWithFlash(SONGS, { type: 'success', key: 'setlist.flash.songCreated', values: { title: submission.value.title } })
	}
	if (!(await updateSong(db, params.songId, submission.value))) throw data({ reason: 'not-found' }, { status: 404 })
	return redirectWithFlash(SONGS, { type: 'success', key: 'setlist.flash.songSaved', values: { title: submission.value.title } })
}

export default function SongEditor({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const busy = useNavigation().state !== 'idle'
	const { song, values } = loaderData
	const [form, fields] = useForm<SongFormInput>({
		id: 'form-morceau',
		lastResult: actionData?.result,
		constraint: loaderData.constraint,
		defaultValue: values,
		...validateInBrowser(SongFormSchema),
	})
	const { blocker, markSubmitting } = useUnsavedChanges(form.dirty)
	const optional = t('setlist.song.optional')
	return (
		<>
			<Link to={SONGS} className={linkClasses('quiet', 'mb-3 inline-flex min-h-11 items-center gap-1.5 text-sm sm:min-h-0')}>
				<ArrowLeft aria-hidden="true" className="size-4" />
				{t('setlist.song.back')}
			</Link>
			<PageHeader
				title={song ? song.title : t('setlist.song.newTitle')}
				description={song?.archived ? t('setlist.song.archivedNote') : t('setlist.song.intro')}
			/>
			<Card className="mt-6 max-w-2xl">
				<Form
					method="post"
					{...getFormProps(form)}
					onSubmit={(e) => {
						form.onSubmit(e)
						markSubmitting(e)
					}}
					className="flex flex-col gap-4"
				>
					<FormError id={form.errorId} errors={form.errors} />
					<Field label={t('setlist.song.fields.title')} errors={fields.title.errors}>
						{(control) => <Input {...getInputProps(fields.title, { type: 'text' })} {...control} autoComplete="off" />}
					</Field>
					<Field
						label={t('setlist.song.fields.originalArtist')}
						optional={optional}
						hint={t('setlist.song.fields.originalArtistHint')}
						errors={fields.originalArtist.errors}
					>
						{(control) => <Input {...getInputProps(fields.originalArtist, { type: 'text' })} {...control} autoComplete="off" />}
					</Field>
					<div className="grid gap-4 sm:grid-cols-3">
						<Field
							label={t('setlist.song.fields.duration')}
							optional={optional}
							hint={t('setlist.song.fields.durationHint')}
							errors={fields.duration.errors}
						>
							{(control) => (
								<Input
									{...getInputProps(fields.duration, { type: 'text' })}
									{...control}
									inputMode="numeric"
									placeholder="4:05"
									autoComplete="off"
								/>
							)}
						</Field>
						<Field
							label={t('setlist.song.fields.musicalKey')}
							optional={optional}
							hint={t('setlist.song.fields.musicalKeyHint')}
							errors={fields.musicalKey.errors}
						>
							{(control) => <Input {...getInputProps(fields.musicalKey, { type: 'text' })} {...control} autoComplete="off" />}
						</Field>
						<Field
							label={t('setlist.song.fields.tempo')}
							optional={optional}
							hint={t('setlist.song.fields.tempoHint')}
							errors={fields.tempo.errors}
						>
							{(control) => (
								<Input {...getInputProps(fields.tempo, { type: 'text' })} {...control} inputMode="numeric" autoComplete="off" />
							)}
						</Field>
					</div>
					<Field
						label={t('setlist.song.fields.notes')}
						optional={optional}
						hint={t('setlist.song.fields.notesHint')}
						errors={fields.notes.errors}
					>
						{(control) => <Textarea {...getTextareaProps(fields.notes)} {...control} rows={4} maxLength={SONG_LIMITS.notes} />}
					</Field>
					<div className="flex flex-wrap gap-2">
						<Button type="submit" disabled={busy}>
							{busy ? t('setlist.song.saving') : song ? t('setlist.song.save') : t('setlist.song.create')}
						</Button>
						<Link to={SONGS} className={buttonClasses('ghost')}>
							{t('setlist.song.cancel')}
						</Link>
					</div>
				</Form>
			</Card>
			<UnsavedChangesDialog blocker={blocker} body={t('setlist.song.leaveBody')} />
		</>
	)
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	const { t } = useTranslation()
	return (
		<ScreenError
			error={error}
			notFound={{ title: t('setlist.song.notFoundTitle'), body: t('setlist.song.notFoundBody') }}
			back={{ to: SONGS, label: t('setlist.song.back') }}
		/>
	)
}
