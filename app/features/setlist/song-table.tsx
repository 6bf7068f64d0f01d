import { Archive, ArchiveRestore } from '#app/components/icons.tsx'
import { Form, Link, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { formatDuration } from './duration.ts'
import type { SongRow } from './songs.server.ts'

const SONGS = '/dashboard/admin/setlist/songs'

/**
 * The library's songs as a table: title (with artist and duration under it on a phone), original
 * artist, duration, key, tempo, and one button that archives the song or brings it back.
 */
export function SongTable({ rows, archived }: { rows: SongRow[]; archived: boolean }) {
	const { t } = useTranslation()
	const busy = useNavigation().state !== 'idle'
	return (
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
							<Link to={`${SONGS}/${song.id}`} className={linkClasses('default', 'decoration-accent/70')}>
								{song.title}
							</Link>
							<span className="mt-0.5 block text-sm text-muted md:hidden">
								{[
									song.originalArtist ? t('setlist.public.coverOf', { artist: song.originalArtist }) : null,
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
	)
}
