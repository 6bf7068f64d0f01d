import { useTranslation } from '#app/i18n/react.tsx'
import type { PublicSetlist } from './setlists.server.ts'

/*
 * The setlist on an event's public page, once the band published it: the songs in order, set
 * breaks and encores as headings, covers credited « reprise de … », per-song remarks (« avec
 * invité »). Stage cues (free notes) are never shown here.
 */
export function PublicSetlistSection(props: { setlist: PublicSetlist | null }) {
	const { t } = useTranslation()
	const setlist = props.setlist
	if (!setlist) return null
	return (
		<section aria-labelledby="setlist-concert" className="mx-auto max-w-page px-gutter pt-4 pb-16">
			<h2 id="setlist-concert" className="font-display text-headline tracking-display uppercase">
				{t('setlist.public.title')}
			</h2>
			<p className="mt-2 text-muted">{t('setlist.public.count', { count: setlist.songCount })}</p>
			<div className="mt-6 gap-x-12 md:columns-2">
				{setlist.sections.map((section, index) => (
					<div key={`${section.kind}-${index}`} className="mb-8 min-w-0 break-inside-avoid">
						{section.kind !== 'main' || setlist.sections.length > 1 ? (
							<h3 className="eyebrow border-b border-line pb-2 text-accent-fg">
								{section.kind === 'main'
									? t('setlist.sections.main')
									: section.kind === 'encore'
										? section.label ||
											(section.encoreNumber > 1
												? t('setlist.sections.encoreNumber', { number: section.encoreNumber })
												: t('setlist.sections.encore'))
										: section.label || t('setlist.sections.set')}
							</h3>
						) : null}
						<ol className="mt-3 flex flex-col gap-2.5">
							{section.songs.map((song) => (
								<li key={song.number} value={song.number} className="flex gap-3">
									<span aria-hidden="true" className="w-8 shrink-0 text-right font-display text-xl leading-tight text-muted tabular-nums">
										{song.number}
									</span>
									<span className="min-w-0">
										<span className="block text-lg leading-tight font-semibold [overflow-wrap:anywhere]">{song.title}</span>
										{song.originalArtist || song.notes ? (
											<span className="mt-0.5 block text-sm text-muted">
												{[song.originalArtist ? t('setlist.public.coverOf', { artist: song.originalArtist }) : null, song.notes || null]
													.filter(Boolean)
													.join(' · ')}
											</span>
										) : null}
									</span>
								</li>
							))}
						</ol>
					</div>
				))}
			</div>
		</section>
	)
}
