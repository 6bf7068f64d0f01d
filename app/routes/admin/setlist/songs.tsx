import { clsx } from 'clsx'
import { Archive, ArchiveRestore, FileUp, Music, Plus, Search } from 'lucide-react'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/songs'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { formatDuration } from '#app/features/setlist/duration.ts'
import { SetlistNav } from '#app/features/setlist/setlist-nav.tsx'
import { listSongs, setSongArchived, SONG_SEARCH_MAX, SONG_SORTS, type SongSort } from '#app/features/setlist/songs.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'

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
	return [{ title: loaderData?.title }, { name: 'robots', content: 'noindex' }]
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
	const busy = useNavigation().state !== 'idle'
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
				<div className="relative min-w-0 flex-1 basis-56 sm:max-w-sm">
					<label htmlFor="recherche-morceaux" className="sr-only">
						{t('setlist.songs.searchLabel')}
					</label>
					<Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
					<Input
						id="recherche-morceaux"
						type="search"
						name="q"
						defaultValue={q}
						key={q}
						maxLength={100}
						placeholder={t('setlist.songs.searchPlaceholder')}
						className="pl-9"
						autoComplete="off"
					/>
				</div>
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

			<nav aria-label={t('setlist.songs.viewsLabel')} className="mt-6">
				<ul className="flex gap-1 border-b border-line">
					{[
						{ archived: false, label: t('setlist.songs.active'), count: counts.active },
						{ archived: true, label: t('setlist.songs.archived'), count: counts.archived },
					].map((view) => (
						<li key={view.label} className="flex">
							<Link
								to={songsUrl({ q, sort, archived: view.archived })}
								aria-current={view.archived === archived ? 'page' : undefined}
								className={clsx(
									'relative inline-flex min-h-11 items-center gap-2 px-3 text-sm font-medium after:absolute after:inset-x-2 after:-bottom-px after:h-0.5 after:rounded-full',
									view.archived === archived ? 'text-fg after:bg-accent' : 'text-muted hover:text-fg',
								)}
							>
								{view.label}
								<span className="rounded-badge bg-fg/8 px-1.5 text-xs tabular-nums">{view.count.toLocaleString('fr-FR')}</span>
							</Link>
						</li>
					))}
				</ul>
			</nav>

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
					<Table label={t('setlist.songs.tableLabel')}>
						<TableHead>
							<tr>
								<TableHeader>{t('setlist.songs.columns.title')}</TableHeader>
								<TableHeader className="hidden md:table-cell">{t('setlist.songs.columns.artist')}</TableHeader>
								<TableHeader numeric className="hidden sm:table-cell">
									{t('setlist.songs.columns.duration')}
								</TableHeader>
								<TableHeader className="hidden lg:table-cell">{t('setlist.songs.columns.key')}</TableHeader>
								<TableHeader numeric className="hidden lg:table-cell">
									{t('setlist.songs.columns.tempo')}
								</TableHeader>
								<TableHeader className="relative">
									<span className="sr-only">{t('setlist.songs.columns.actions')}</span>
								</TableHeader>
							</tr>
						</TableHead>
						<TableBody>
							{rows.map((song) => (
								<TableRow key={song.id}>
									<TableCell wrap className="align-top">
										<Link to={`${SONGS}/${song.id}`} className={linkClasses('default', 'font-medium decoration-accent/70')}>
											{song.title}
										</Link>
										<span className="mt-0.5 block text-sm text-muted md:hidden">
											{[
												song.originalArtist ? t('setlist.coverOf', { artist: song.originalArtist }) : null,
												song.durationSeconds ? formatDuration(song.durationSeconds) : null,
											]
												.filter(Boolean)
												.join(' · ')}
										</span>
									</TableCell>
									<TableCell wrap className="hidden align-top text-sm md:table-cell">
										{song.originalArtist ?? <span className="text-muted">{t('setlist.songs.own')}</span>}
									</TableCell>
									<TableCell numeric className="hidden align-top sm:table-cell">
										{song.durationSeconds ? formatDuration(song.durationSeconds) : '—'}
									</TableCell>
									<TableCell className="hidden align-top text-sm lg:table-cell">{song.musicalKey ?? '—'}</TableCell>
									<TableCell numeric className="hidden align-top lg:table-cell">
										{song.tempo ?? '—'}
									</TableCell>
									<TableCell className="w-px text-right align-top">
										<Form method="post">
											<input type="hidden" name="songId" value={song.id} />
											<Button
												type="submit"
												name="intent"
												value={archived ? 'restore' : 'archive'}
												variant="ghost"
												size="sm"
												disabled={busy}
												aria-label={
													archived
														? t('setlist.songs.restoreLabel', { title: song.title })
														: t('setlist.songs.archiveLabel', { title: song.title })
												}
											>
												{archived ? <ArchiveRestore aria-hidden="true" /> : <Archive aria-hidden="true" />}
											</Button>
										</Form>
									</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				)}
			</section>
		</>
	)
}
