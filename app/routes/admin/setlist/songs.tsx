import { FileUp, Music, Plus } from '#app/components/icons.tsx'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/songs'
import { SearchField } from '#app/components/forms/search-field.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { CountTabs } from '#app/components/ui/tabs.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { SetlistNav } from '#app/features/setlist/setlist-nav.tsx'
import { SongTable } from '#app/features/setlist/song-table.tsx'
import { listSongs, setSongArchived, SONG_SEARCH_MAX, SONG_SORTS, type SongSort } from '#app/features/setlist/songs.server.ts'
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
 * The song library: search (title or original artist, accents ignored), sort, the archived songs
 * on their own tab; create, edit, archive and bring back; import from a spreadsheet.
 */

const SONGS = '/dashboard/admin/setlist/songs'

function readSort(value: string | null): SongSort {
	return SONG_SORTS.includes(value as SongSort) ? (value as SongSort) : 'title'
}

function songsUrl(options: { q?: string; sort?: SongSort; archived?: boolean }) {
	const params = new URLSearchParams()
	if (options.archived) params.set('vue', 'archives')
	if (options.q) params.set('q', options.q)
	if (options.sort && options.sort !== 'title') params.set('tri', options.sort)
	const search = params.toString()
	return search ? `${SONGS}?${search}` : SONGS
}

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const params = new URL(request.url).searchParams
	const q = (params.get('q') ?? '').trim().slice(0, SONG_SEARCH_MAX)
	const sort = readSort(params.get('tri'))
	const archived = params.get('vue') === 'archives'
	const songs = await listSongs(await getDb(), { query: q, sort, archived })
	return { title: pageTitle(getT()('setlist.songs.metaTitle')), q, sort, archived, ...songs }
}

export async function action({ request }: Route.ActionArgs) {
	await requireAdmin(request)
	const formData = await request.formData()
	const intent = formData.get('intent')
	if (intent !== 'archive' && intent !== 'restore') throw data(null, { status: 400 })
	const params = new URL(request.url).searchParams
	const back = songsUrl({ q: params.get('q') ?? '', sort: readSort(params.get('tri')), archived: params.get('vue') === 'archives' })
	const done = await setSongArchived(await getDb(), String(formData.get('songId') ?? ''), intent === 'archive')
	if (!done) return redirectWithFlash(back, { type: 'info', key: 'setlist.flash.songGone' })
	if (intent === 'archive')
		return redirectWithFlash(back, { type: 'success', key: 'setlist.flash.songArchived', values: { title: done.title } })
	return redirectWithFlash(back, { type: 'success', key: 'setlist.flash.songRestored', values: { title: done.title } })
}

export default function Songs({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { rows, counts, q, sort, archived } = loaderData
	const sorts: { id: SongSort; label: string }[] = [
		{ id: 'title', label: t('setlist.songs.sort.title') },
		{ id: 'artist', label: t('setlist.songs.sort.artist') },
		{ id: 'duration', label: t('setlist.songs.sort.duration') },
		{ id: 'tempo', label: t('setlist.songs.sort.tempo') },
		{ id: 'recent', label: t('setlist.songs.sort.recent') },
	]
	const actions = (
		<div className="flex flex-wrap gap-2">
			<Link to={`${SONGS}/import`} className={buttonClasses('secondary')}>
				<FileUp aria-hidden="true" />
				{t('setlist.songs.import')}
			</Link>
			<Link to={`${SONGS}/new`} className={buttonClasses('primary')}>
				<Plus aria-hidden="true" />
				{t('setlist.songs.new')}
			</Link>
		</div>
	)
	return (
		<>
			<SetlistNav />
			<PageHeader title={t('setlist.songs.title')} description={t('setlist.songs.intro')} actions={actions} />
			<Form method="get" action={SONGS} role="search" className="mt-6 flex flex-wrap items-end gap-2">
				{archived ? <input type="hidden" name="vue" value="archives" /> : null}
				<SearchField
					id="recherche-morceaux"
					label={t('setlist.songs.searchLabel')}
					placeholder={t('setlist.songs.searchPlaceholder')}
					value={q}
					maxLength={100}
					className="sm:max-w-sm"
				/>
				<div className="flex flex-col gap-1">
					<label htmlFor="tri-morceaux" className="text-sm font-semibold">
						{t('setlist.songs.sortLabel')}
					</label>
					<Select id="tri-morceaux" name="tri" defaultValue={sort} key={sort}>
						{sorts.map((s) => (
							<option key={s.id} value={s.id}>
								{s.label}
							</option>
						))}
					</Select>
				</div>
				<Button type="submit" variant="secondary">
					{t('setlist.songs.searchSubmit')}
				</Button>
			</Form>

			<CountTabs
				label={t('setlist.songs.viewsLabel')}
				items={[
					{ id: 'active', to: songsUrl({ q, sort }), label: t('setlist.songs.active'), count: counts.active },
					{ id: 'archived', to: songsUrl({ q, sort, archived: true }), label: t('setlist.songs.archived'), count: counts.archived },
				]}
				current={archived ? 'archived' : 'active'}
				className="mt-6"
			/>

			<section aria-label={archived ? t('setlist.songs.archived') : t('setlist.songs.active')} className="mt-5">
				{rows.length === 0 ? (
					<EmptyState
						icon={<Music aria-hidden="true" />}
						title={
							q ? t('setlist.songs.emptySearch', { query: q }) : archived ? t('setlist.songs.emptyArchived') : t('setlist.songs.emptyTitle')
						}
						body={q || archived ? undefined : t('setlist.songs.emptyBody')}
						action={q || archived ? undefined : actions}
					/>
				) : (
					<SongTable rows={rows} archived={archived} />
				)}
			</section>
		</>
	)
}
