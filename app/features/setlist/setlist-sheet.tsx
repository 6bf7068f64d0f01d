import { clsx } from 'clsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { formatDuration, formatTotal } from './duration.ts'
import { sectionsOf, type SectionItem } from './sections.ts'

/*
 * The setlist as the band reads it on stage: numbered songs with their key and tempo, set breaks
 * and encores marked, stage notes in italics. `print` is black on white for an A4 sheet, its type
 * shrinking with the number of lines so that it fits one page; `stage` is very large type on black
 * for a phone or a tablet on a music stand.
 */
export function SetlistSheet(props: { items: SectionItem[]; variant: 'print' | 'stage' }) {
	const { t } = useTranslation()
	const summary = sectionsOf(props.items)
	const lines = props.items.length
	const stage = props.variant === 'stage'
	// One A4 page for up to about 45 lines: the type is as large as the number of lines allows.
	const printSize =
		lines <= 12 ? 'text-[28pt]' : lines <= 16 ? 'text-[24pt]' : lines <= 22 ? 'text-[19pt]' : lines <= 30 ? 'text-[14.5pt]' : 'text-[11pt]'
	return (
		<div className={clsx(stage ? 'text-[clamp(1.75rem,7.5vw,4.25rem)] leading-tight' : printSize, 'leading-snug')}>
			{summary.sections.map((section, index) => (
				<section key={section.breakItem?.id ?? 'principal'} className={clsx(index > 0 && (stage ? 'mt-[0.9em]' : 'mt-[0.45em]'))}>
					{section.kind !== 'main' ? (
						<h2
							className={clsx(
								'font-display tracking-display uppercase',
								stage
									? 'border-y-4 border-accent py-[0.15em] text-[0.8em] text-accent-fg'
									: 'border-b-[1.5pt] border-black pb-[0.05em] text-[0.8em]',
							)}
						>
							{section.kind === 'encore'
								? section.label ||
									(section.encoreNumber > 1
										? t('setlist.sections.encoreNumber', { number: section.encoreNumber })
										: t('setlist.sections.encore'))
								: section.label || t('setlist.sections.set')}
							{section.breakItem?.notes ? (
								<span className="ml-[0.5em] text-[0.7em] normal-case italic">{section.breakItem.notes}</span>
							) : null}
						</h2>
					) : null}
					<ol className="mt-[0.15em]">
						{section.entries.map(({ item, number }) =>
							item.kind === 'song' ? (
								<li key={item.id} className={clsx('flex items-baseline gap-[0.4em]', stage ? 'py-[0.12em]' : 'py-[0.04em]')}>
									<span
										className={clsx(
											'w-[1.6em] shrink-0 text-right tabular-nums',
											stage ? 'text-white/65' : 'text-[0.8em] text-neutral-600',
										)}
									>
										{number}
									</span>
									{/* On a phone the key and tempo go under the title, which keeps the whole width. */}
									<span
										className={clsx(
											'flex min-w-0 flex-1',
											stage ? 'flex-col sm:flex-row sm:items-baseline sm:gap-[0.4em]' : 'items-baseline gap-[0.4em]',
										)}
									>
										<span className="min-w-0 flex-1">
											<span className="font-bold [overflow-wrap:anywhere]">{item.song?.title ?? '—'}</span>
											{item.notes ? (
												<span className={clsx('ml-[0.4em] text-[0.6em] italic', stage ? 'text-accent-fg' : '')}>{item.notes}</span>
											) : null}
										</span>
										<span
											className={clsx(
												'shrink-0 text-[0.6em] tabular-nums',
												stage ? 'text-white/65 sm:text-right' : 'text-right text-neutral-700',
											)}
										>
											{[item.song?.musicalKey, item.song?.tempo ? t('setlist.bpm', { tempo: item.song.tempo }) : null]
												.filter(Boolean)
												.join(' · ')}
										</span>
									</span>
								</li>
							) : (
								<li key={item.id} className={clsx('pl-[2em] text-[0.6em] italic', stage ? 'py-[0.2em] text-white/65' : 'py-[0.1em]')}>
									— {item.label}
									{item.notes ? ` (${item.notes})` : ''}
								</li>
							),
						)}
					</ol>
				</section>
			))}
			{summary.songCount === 0 ? <p className="text-[0.6em] italic">{t('setlist.sheet.empty')}</p> : null}
			<p className={clsx('mt-[0.8em] text-[0.45em]', stage ? 'text-white/65' : 'text-neutral-600')}>
				{t('setlist.builder.songCount', { count: summary.songCount })} · {formatTotal(summary.durationSeconds)}
				{summary.sections.length > 1
					? ` (${summary.sections.map((s) => `${s.kind === 'main' ? t('setlist.sections.main') : s.label || (s.kind === 'encore' ? t('setlist.sections.encore') : t('setlist.sections.set'))} ${formatDuration(s.durationSeconds)}`).join(', ')})`
					: null}
			</p>
		</div>
	)
}
