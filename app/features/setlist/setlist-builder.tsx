import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import {
	closestCenter,
	DndContext,
	KeyboardSensor,
	PointerSensor,
	useSensor,
	useSensors,
	type Announcements,
	type DragEndEvent,
	type UniqueIdentifier,
} from '@dnd-kit/core'
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { clsx } from 'clsx'
import {
	AlertTriangle,
	ChevronDown,
	ChevronUp,
	GripVertical,
	MessageSquarePlus,
	Music,
	Plus,
	Search,
	StickyNote,
	Trash2,
} from '#app/components/icons.tsx'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { UnsavedChangesDialog, useUnsavedChanges } from '#app/components/forms/unsaved-changes.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import type { SetlistItemKind } from '#app/platform/db/schema.ts'
import { formatDuration, formatTotal } from './duration.ts'
import { sectionsOf, type SectionItem } from './sections.ts'

/*
 * The setlist builder: the ordered list on one side, the library on the other. Items move by drag
 * and drop (mouse, touch) and fully by keyboard (Espace to take, arrows to move, Espace to drop,
 * Échap to cancel), announced in French to screen readers, or with the up and down buttons. The
 * whole list is saved at once with the version it started from: a save made over someone else's
 * newer one is refused, shows their version, and keeps this admin's changes to take back.
 */

export type BuilderSong = NonNullable<SectionItem['song']>

export interface BuilderItem {
	id: string
	kind: SetlistItemKind
	songId: string | null
	label: string
	notes: string
}

export interface BuilderSetlist {
	id: string
	name: string
	version: number
	items: Array<Omit<BuilderItem, 'songId'> & { song: BuilderSong | null }>
}

export type SaveAnswer =
	| { intent: 'save'; ok: true; version: number }
	| { intent: 'save'; ok: false; reason: 'stale' | 'foreign-items' | 'duplicate-items' | 'unknown-songs'; current: BuilderSetlist | null }
	| { intent: 'save'; ok: false; reason: 'invalid'; result: SubmissionResult<string[]> }

type FormConstraint = NonNullable<Parameters<typeof useForm>[0]['constraint']>

const newItemId = () => crypto.randomUUID()

const toBuilderItems = (items: BuilderSetlist['items']): BuilderItem[] =>
	items.map(({ id, kind, song, label, notes }) => ({ id, kind, songId: song?.id ?? null, label, notes }))

function snapshot(name: string, items: BuilderItem[]) {
	return JSON.stringify([name.trim(), items.map((i) => [i.id, i.kind, i.songId, i.label.trim(), i.notes.trim()])])
}

export function SetlistBuilder(props: {
	setlist: BuilderSetlist
	songs: BuilderSong[]
	constraint: FormConstraint
	/** Told the version shown and whether changes are unsaved (the publish button waits for a save). */
	onStateChange?: (state: { version: number; dirty: boolean }) => void
}) {
	const { t } = useTranslation()
	const fetcher = useFetcher<SaveAnswer>()
	const [base, setBase] = useState({
		version: props.setlist.version,
		snapshot: snapshot(props.setlist.name, toBuilderItems(props.setlist.items)),
	})
	const [items, setItems] = useState<BuilderItem[]>(() => toBuilderItems(props.setlist.items))
	const [name, setName] = useState(props.setlist.name)
	const [stash, setStash] = useState<{ name: string; items: BuilderItem[] } | null>(null)
	const [conflict, setConflict] = useState<string | null>(null)
	const [announcement, setAnnouncement] = useState('')
	const sentRef = useRef<{ name: string; items: BuilderItem[] } | null>(null)

	// Every song the list may show: the library's, and those of the setlist (an archived one stays).
	const songMap = useMemo(() => {
		const map = new Map<string, BuilderSong>()
		for (const item of props.setlist.items) if (item.song) map.set(item.song.id, item.song)
		for (const song of props.songs) map.set(song.id, song)
		return map
	}, [props.songs, props.setlist.items])

	const answer = fetcher.data
	const invalid = answer && !answer.ok && answer.reason === 'invalid' ? answer.result : undefined
	const [form, fields] = useForm({
		id: 'form-setlist',
		lastResult: fetcher.state === 'idle' ? invalid : undefined,
		constraint: props.constraint,
		defaultValue: { name: props.setlist.name },
	})

	// What the server answered to a save.
	const handled = useRef<SaveAnswer | undefined>(undefined)
	useEffect(() => {
		if (!answer || fetcher.state !== 'idle' || handled.current === answer) return
		handled.current = answer
		const sent = sentRef.current
		if (answer.ok) {
			if (sent) setBase({ version: answer.version, snapshot: snapshot(sent.name, sent.items) })
			setConflict(null)
			setAnnouncement(t('setlist.builder.saved'))
			return
		}
		if (answer.reason === 'invalid') return
		if (answer.current) {
			// Someone else's version replaces the list; this admin's changes wait in the stash.
			const current = answer.current
			setStash(sent ?? { name, items })
			setItems(toBuilderItems(current.items))
			setName(current.name)
			form.update({ name: fields.name.name, value: current.name })
			setBase({ version: current.version, snapshot: snapshot(current.name, toBuilderItems(current.items)) })
		}
		setConflict(answer.reason)
		// Runs once per answer of the server (the ref guards it); the list and name it reads are those of that moment.
		// oxlint-disable-next-line react-hooks/exhaustive-deps
	}, [answer, fetcher.state])

	// The name is controlled here (a conflict replaces it): Conform gives its constraints and errors.
	const { defaultValue: _defaultValue, key: _key, ...nameProps } = getInputProps(fields.name, { type: 'text' })
	const dirty = snapshot(name, items) !== base.snapshot
	const saving = fetcher.state !== 'idle'
	// The list is saved by a fetcher (no navigation): nothing to mark as submitting.
	const { blocker } = useUnsavedChanges(dirty)
	const { onStateChange } = props
	useEffect(() => onStateChange?.({ version: base.version, dirty }), [onStateChange, base.version, dirty])

	const viewItems: Array<SectionItem & BuilderItem> = items.map((item) => ({
		...item,
		song: item.songId ? (songMap.get(item.songId) ?? null) : null,
	}))
	const summary = sectionsOf(viewItems)
	const numbers = new Map<string, number>()
	const sectionTotals = new Map<string, { seconds: number; songs: number }>()
	for (const section of summary.sections) {
		for (const entry of section.entries) if (entry.number !== null) numbers.set(entry.item.id, entry.number)
		if (section.breakItem)
			sectionTotals.set(section.breakItem.id, {
				seconds: section.durationSeconds,
				songs: section.entries.filter((e) => e.number !== null).length,
			})
	}
	const mainSection = summary.sections.find((s) => s.kind === 'main')

	const titleOf = (id: UniqueIdentifier) => {
		const item = viewItems.find((i) => i.id === id)
		if (!item) return ''
		if (item.kind === 'song') return item.song?.title ?? t('setlist.builder.unknownSong')
		if (item.kind === 'set') return item.label || t('setlist.kinds.set')
		if (item.kind === 'encore') return item.label || t('setlist.kinds.encore')
		return item.label || t('setlist.kinds.note')
	}
	const positionOf = (id: UniqueIdentifier | undefined) => (id === undefined ? 0 : items.findIndex((i) => i.id === id) + 1)
	const total = items.length
	// What the item was last announced over: the move starts over the item itself, which says nothing new.
	const lastOver = useRef<UniqueIdentifier | null>(null)
	const announcements: Announcements = {
		onDragStart: ({ active }) => {
			lastOver.current = active.id
			return t('setlist.dnd.start', { title: titleOf(active.id), position: positionOf(active.id), total })
		},
		onDragOver: ({ active, over }) => {
			if ((over?.id ?? null) === lastOver.current) return undefined
			lastOver.current = over?.id ?? null
			return over
				? t('setlist.dnd.over', { title: titleOf(active.id), position: positionOf(over.id), total })
				: t('setlist.dnd.outside', { title: titleOf(active.id) })
		},
		onDragEnd: ({ active, over }) =>
			over
				? t('setlist.dnd.end', { title: titleOf(active.id), position: positionOf(over.id), total })
				: t('setlist.dnd.cancel', { title: titleOf(active.id) }),
		onDragCancel: ({ active }) => t('setlist.dnd.cancel', { title: titleOf(active.id) }),
	}

	const sensors = useSensors(
		useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
		useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
	)
	const onDragEnd = ({ active, over }: DragEndEvent) => {
		if (!over || active.id === over.id) return
		setItems((current) => {
			const from = current.findIndex((i) => i.id === active.id)
			const to = current.findIndex((i) => i.id === over.id)
			return from < 0 || to < 0 ? current : arrayMove(current, from, to)
		})
	}
	const move = (index: number, by: -1 | 1) => {
		const to = index + by
		if (to < 0 || to >= items.length) return
		setItems((current) => arrayMove(current, index, to))
		setAnnouncement(t('setlist.dnd.end', { title: titleOf(items[index]!.id), position: to + 1, total }))
		// The focus follows the item it moved.
		const id = items[index]!.id
		requestAnimationFrame(() =>
			document.querySelector<HTMLElement>(`[data-item-id="${id}"] [data-move="${by < 0 ? 'up' : 'down'}"]`)?.focus(),
		)
	}
	const update = (id: string, patch: Partial<BuilderItem>) =>
		setItems((current) => current.map((i) => (i.id === id ? { ...i, ...patch } : i)))
	const remove = (id: string) => {
		setAnnouncement(t('setlist.builder.removed', { title: titleOf(id) }))
		setItems((current) => current.filter((i) => i.id !== id))
	}
	const add = (item: Omit<BuilderItem, 'id'>) => {
		const id = newItemId()
		setItems((current) => [...current, { ...item, id }])
		const kindWord =
			item.kind === 'set' ? t('setlist.kinds.set') : item.kind === 'encore' ? t('setlist.kinds.encore') : t('setlist.kinds.note')
		setAnnouncement(
			t('setlist.builder.added', { title: item.kind === 'song' ? (songMap.get(item.songId ?? '')?.title ?? '') : item.label || kindWord }),
		)
	}

	return (
		<div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
			<fetcher.Form
				method="post"
				{...getFormProps(form)}
				onSubmit={(e) => {
					sentRef.current = { name, items }
					form.onSubmit(e)
				}}
				className="min-w-0"
			>
				<input type="hidden" name="intent" value="save" />
				<input type="hidden" name="version" value={base.version} />
				<input type="hidden" name="items" value={JSON.stringify(items)} />
				<p className="sr-only" role="status" aria-live="polite">
					{announcement}
				</p>

				{conflict ? (
					<div role="alert" className="mb-4 rounded-card border border-warning/60 bg-warning/10 px-4 py-3">
						<p className="flex items-start gap-2 font-semibold">
							<AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
							{conflict === 'stale' ? t('setlist.builder.staleTitle') : t('setlist.builder.refusedTitle')}
						</p>
						<p className="mt-1 text-sm">{conflict === 'stale' ? t('setlist.builder.staleBody') : t('setlist.builder.refusedBody')}</p>
						{stash ? (
							<div className="mt-3 flex flex-wrap gap-2">
								<Button
									size="sm"
									variant="secondary"
									onClick={() => {
										setItems(stash.items.filter((i) => i.kind !== 'song' || (i.songId && songMap.has(i.songId))))
										setName(stash.name)
										form.update({ name: fields.name.name, value: stash.name })
										setStash(null)
										setConflict(null)
									}}
								>
									{t('setlist.builder.takeMine')}
								</Button>
								<Button
									size="sm"
									variant="ghost"
									onClick={() => {
										setStash(null)
										setConflict(null)
									}}
								>
									{t('setlist.builder.keepTheirs')}
								</Button>
							</div>
						) : null}
					</div>
				) : null}

				<div className="z-20 rounded-card border border-line bg-surface/95 px-4 py-3 shadow-pop backdrop-blur-sm sm:sticky sm:top-2">
					<FormError id={form.errorId} errors={form.errors} />
					<div className="flex flex-wrap items-end gap-3">
						<Field label={t('setlist.builder.name')} errors={fields.name.errors} className="min-w-0 flex-1 basis-56">
							{(control) => <Input {...nameProps} {...control} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />}
						</Field>
						<Button type="submit" disabled={saving} className="flex-1 sm:flex-none">
							{saving ? t('setlist.builder.saving') : t('setlist.builder.save')}
						</Button>
					</div>
					<p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted" aria-live="polite">
						<span className="font-semibold text-fg tabular-nums">
							{t('setlist.builder.songCount', { count: summary.songCount })} · {formatTotal(summary.durationSeconds)}
						</span>
						{summary.unknownDurations > 0 ? (
							<span>{t('setlist.builder.unknownDurations', { count: summary.unknownDurations })}</span>
						) : null}
						{dirty ? (
							<span className="inline-flex items-center gap-1.5">
								<span aria-hidden="true" className="size-2 rounded-full bg-warning" />
								{t('setlist.builder.unsaved')}
							</span>
						) : (
							<span>{t('setlist.builder.allSaved')}</span>
						)}
					</p>
				</div>

				<p id="consignes-deplacement" className="mt-4 text-sm text-muted">
					{t('setlist.dnd.help')}
				</p>

				{items.length === 0 ? (
					<div className="mt-4 rounded-card border border-dashed border-line-strong px-6 py-10 text-center">
						<Music aria-hidden="true" className="mx-auto size-8 text-muted" />
						<p className="mt-3 font-semibold">{t('setlist.builder.emptyTitle')}</p>
						<p className="mt-1 text-sm text-muted">{t('setlist.builder.emptyBody')}</p>
					</div>
				) : (
					<DndContext
						id="setlist-builder"
						sensors={sensors}
						collisionDetection={closestCenter}
						onDragEnd={onDragEnd}
						accessibility={{ announcements, screenReaderInstructions: { draggable: t('setlist.dnd.instructions') } }}
					>
						<SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
							{mainSection && mainSection.entries.length > 0 && items[0]?.kind !== 'set' && items[0]?.kind !== 'encore' ? (
								<p className="mt-4 flex items-baseline justify-between gap-3 border-b border-line pb-1 text-sm">
									<span className="eyebrow text-muted">{t('setlist.sections.main')}</span>
									<span className="text-muted tabular-nums">{formatTotal(mainSection.durationSeconds)}</span>
								</p>
							) : null}
							<ol aria-label={t('setlist.builder.listLabel')} className="mt-2 flex flex-col gap-1.5">
								{viewItems.map((item, index) => (
									<SortableRow
										key={item.id}
										item={item}
										index={index}
										count={items.length}
										number={numbers.get(item.id) ?? null}
										sectionTotal={sectionTotals.get(item.id) ?? null}
										onMove={move}
										onUpdate={update}
										onRemove={remove}
									/>
								))}
							</ol>
						</SortableContext>
					</DndContext>
				)}
			</fetcher.Form>

			<AddPanel songs={props.songs} onAdd={add} inList={new Set(items.flatMap((i) => (i.songId ? [i.songId] : [])))} />
			<UnsavedChangesDialog blocker={blocker} body={t('setlist.builder.leaveBody')} />
		</div>
	)
}

function SortableRow(props: {
	item: SectionItem & BuilderItem
	index: number
	count: number
	number: number | null
	sectionTotal: { seconds: number; songs: number } | null
	onMove: (index: number, by: -1 | 1) => void
	onUpdate: (id: string, patch: Partial<BuilderItem>) => void
	onRemove: (id: string) => void
}) {
	const { t } = useTranslation()
	const { item, index } = props
	const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.id })
	const [notesOpen, setNotesOpen] = useState(item.notes.length > 0)
	const isBreak = item.kind === 'set' || item.kind === 'encore'
	const title =
		item.kind === 'song'
			? (item.song?.title ?? t('setlist.builder.unknownSong'))
			: item.label ||
				(item.kind === 'set' ? t('setlist.kinds.set') : item.kind === 'encore' ? t('setlist.kinds.encore') : t('setlist.kinds.note'))
	return (
		<li
			ref={setNodeRef}
			style={{ transform: CSS.Transform.toString(transform), transition }}
			data-item-kind={item.kind}
			data-item-id={item.id}
			className={clsx(
				'relative rounded-control border bg-surface',
				isBreak ? 'mt-3 border-accent/50 bg-accent/8' : item.kind === 'note' ? 'border-dashed border-line-strong' : 'border-line',
				isDragging && 'z-10 shadow-pop ring-2 ring-accent',
			)}
		>
			<div className="flex items-center gap-1.5 p-1.5 sm:gap-2">
				<button
					type="button"
					ref={setActivatorNodeRef}
					{...attributes}
					{...listeners}
					aria-describedby="consignes-deplacement"
					aria-label={t('setlist.dnd.handle', { title, position: index + 1, total: props.count })}
					className="grid min-h-11 min-w-9 shrink-0 cursor-grab touch-none place-items-center rounded-control text-muted hover:bg-fg/8 hover:text-fg active:cursor-grabbing"
				>
					<GripVertical aria-hidden="true" className="size-5" />
				</button>
				<span className="w-7 shrink-0 text-right font-display text-lg text-muted tabular-nums" aria-hidden={props.number === null}>
					{props.number ?? (item.kind === 'note' ? <StickyNote aria-hidden="true" className="ml-auto size-4" /> : null)}
				</span>
				<div className="min-w-0 flex-1">
					{item.kind === 'song' ? (
						<>
							<p className="truncate font-semibold">{title}</p>
							<p className="flex flex-wrap gap-x-2 text-xs text-muted">
								{item.song?.originalArtist ? <span>{t('setlist.public.coverOf', { artist: item.song.originalArtist })}</span> : null}
								{item.song?.durationSeconds ? <span className="tabular-nums">{formatDuration(item.song.durationSeconds)}</span> : null}
								{item.song?.musicalKey ? <span>{item.song.musicalKey}</span> : null}
								{item.song?.tempo ? <span className="tabular-nums">{t('setlist.bpm', { tempo: item.song.tempo })}</span> : null}
							</p>
						</>
					) : (
						<div className="flex flex-wrap items-center gap-2">
							<span className="eyebrow shrink-0 text-accent-fg">
								{item.kind === 'set'
									? t('setlist.kinds.set')
									: item.kind === 'encore'
										? t('setlist.kinds.encore')
										: t('setlist.kinds.note')}
							</span>
							<label className="sr-only" htmlFor={`libelle-${item.id}`}>
								{item.kind === 'note' ? t('setlist.builder.noteText') : t('setlist.builder.breakName')}
							</label>
							<input
								id={`libelle-${item.id}`}
								value={item.label}
								maxLength={120}
								onChange={(e) => props.onUpdate(item.id, { label: e.target.value })}
								placeholder={
									item.kind === 'note'
										? t('setlist.builder.notePlaceholder')
										: item.kind === 'set'
											? t('setlist.builder.setPlaceholder')
											: t('setlist.builder.encorePlaceholder')
								}
								className="min-h-9 min-w-0 flex-1 rounded-control border border-line bg-canvas px-2 text-sm"
							/>
							{props.sectionTotal ? (
								<span className="text-xs text-muted tabular-nums">
									{t('setlist.builder.sectionTotal', {
										count: props.sectionTotal.songs,
										duration: formatTotal(props.sectionTotal.seconds),
									})}
								</span>
							) : null}
						</div>
					)}
				</div>
				<div className="flex shrink-0 items-center">
					<button
						type="button"
						data-move="up"
						onClick={() => props.onMove(index, -1)}
						disabled={index === 0}
						aria-label={t('setlist.builder.moveUp', { title })}
						className="hidden min-h-9 min-w-9 place-items-center rounded-control text-muted hover:bg-fg/8 hover:text-fg disabled:opacity-30 sm:grid"
					>
						<ChevronUp aria-hidden="true" className="size-4" />
					</button>
					<button
						type="button"
						data-move="down"
						onClick={() => props.onMove(index, 1)}
						disabled={index === props.count - 1}
						aria-label={t('setlist.builder.moveDown', { title })}
						className="hidden min-h-9 min-w-9 place-items-center rounded-control text-muted hover:bg-fg/8 hover:text-fg disabled:opacity-30 sm:grid"
					>
						<ChevronDown aria-hidden="true" className="size-4" />
					</button>
					<button
						type="button"
						onClick={() => setNotesOpen((open) => !open)}
						aria-expanded={notesOpen}
						aria-controls={`remarque-${item.id}`}
						aria-label={t('setlist.builder.notesToggle', { title })}
						className={clsx(
							'grid min-h-11 min-w-9 place-items-center rounded-control hover:bg-fg/8 hover:text-fg',
							item.notes ? 'text-accent-fg' : 'text-muted',
						)}
					>
						<MessageSquarePlus aria-hidden="true" className="size-4" />
					</button>
					<button
						type="button"
						onClick={() => props.onRemove(item.id)}
						aria-label={t('setlist.builder.remove', { title })}
						className="grid min-h-11 min-w-9 place-items-center rounded-control text-muted hover:bg-danger/10 hover:text-danger"
					>
						<Trash2 aria-hidden="true" className="size-4" />
					</button>
				</div>
			</div>
			<div id={`remarque-${item.id}`} hidden={!notesOpen} className="border-t border-line px-3 py-2">
				<label htmlFor={`remarque-champ-${item.id}`} className="text-xs font-semibold">
					{t('setlist.builder.itemNotes')}
				</label>
				<input
					id={`remarque-champ-${item.id}`}
					value={item.notes}
					maxLength={300}
					onChange={(e) => props.onUpdate(item.id, { notes: e.target.value })}
					placeholder={t('setlist.builder.itemNotesPlaceholder')}
					className="mt-1 min-h-9 w-full rounded-control border border-line bg-canvas px-2 text-sm"
				/>
			</div>
		</li>
	)
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

function AddPanel(props: { songs: BuilderSong[]; inList: Set<string>; onAdd: (item: Omit<BuilderItem, 'id'>) => void }) {
	const { t } = useTranslation()
	const [query, setQuery] = useState('')
	const q = fold(query.trim())
	const shown = q ? props.songs.filter((s) => fold(`${s.title} ${s.originalArtist ?? ''}`).includes(q)) : props.songs
	return (
		<aside
			aria-labelledby="ajouter-titre"
			className="flex min-w-0 flex-col gap-4 lg:sticky lg:top-2 lg:max-h-[calc(100dvh-1rem)] lg:self-start"
		>
			<div className="rounded-card border border-line bg-surface p-4">
				<h2 id="ajouter-titre" className="font-semibold">
					{t('setlist.builder.addTitle')}
				</h2>
				<div className="mt-3 grid grid-cols-3 gap-2">
					<Button size="sm" variant="secondary" onClick={() => props.onAdd({ kind: 'set', songId: null, label: '', notes: '' })}>
						{t('setlist.builder.addSet')}
					</Button>
					<Button size="sm" variant="secondary" onClick={() => props.onAdd({ kind: 'encore', songId: null, label: '', notes: '' })}>
						{t('setlist.builder.addEncore')}
					</Button>
					<Button
						size="sm"
						variant="secondary"
						onClick={() => props.onAdd({ kind: 'note', songId: null, label: t('setlist.builder.defaultNote'), notes: '' })}
					>
						{t('setlist.builder.addNote')}
					</Button>
				</div>
			</div>
			<div className="flex min-h-0 flex-col rounded-card border border-line bg-surface p-4">
				<label htmlFor="recherche-morceau" className="font-semibold">
					{t('setlist.builder.librarySearch')}
				</label>
				<div className="relative mt-2">
					<Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
					<Input
						id="recherche-morceau"
						type="search"
						value={query}
						onChange={(e) => setQuery(e.target.value)}
						className="pl-9"
						autoComplete="off"
					/>
				</div>
				{props.songs.length === 0 ? (
					<p className="mt-3 text-sm text-muted">{t('setlist.builder.libraryEmpty')}</p>
				) : shown.length === 0 ? (
					<p className="mt-3 text-sm text-muted">{t('setlist.builder.libraryNoMatch')}</p>
				) : (
					<ul
						aria-label={t('setlist.builder.libraryLabel')}
						className="mt-3 -mr-2 flex max-h-[28rem] flex-col gap-1 overflow-y-auto pr-2 lg:max-h-none"
					>
						{shown.slice(0, 300).map((song) => (
							<li key={song.id} className="flex items-center gap-2 rounded-control px-1 py-1 hover:bg-fg/5">
								<div className="min-w-0 flex-1">
									<p className="truncate text-sm font-medium">
										{song.title}
										{props.inList.has(song.id) ? (
											<span className="ml-1.5 text-xs font-normal text-muted">{t('setlist.builder.alreadyIn')}</span>
										) : null}
									</p>
									<p className="truncate text-xs text-muted">
										{[
											song.originalArtist ? t('setlist.public.coverOf', { artist: song.originalArtist }) : null,
											song.durationSeconds ? formatDuration(song.durationSeconds) : null,
											song.musicalKey,
										]
											.filter(Boolean)
											.join(' · ')}
									</p>
								</div>
								<Button
									size="sm"
									variant="ghost"
									aria-label={t('setlist.builder.addSong', { title: song.title })}
									onClick={() => props.onAdd({ kind: 'song', songId: song.id, label: '', notes: '' })}
								>
									<Plus aria-hidden="true" />
								</Button>
							</li>
						))}
					</ul>
				)}
			</div>
		</aside>
	)
}
