import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cachedEventDetail } from '#app/features/events/cache.server.ts'
import { importSongCsv, previewSongCsv } from '#app/features/setlist/csv-import.server.ts'
import { SetlistSaveSchema, SongFormSchema } from '#app/features/setlist/forms.ts'
import {
	attachSetlist,
	createSetlist,
	duplicateSetlist,
	getSetlist,
	publishedSetlistOfEvent,
	saveSetlist,
	setSetlistPublished,
} from '#app/features/setlist/setlists.server.ts'
import { createSong, listSongs, newSetlistId, setSongArchived, updateSong } from '#app/features/setlist/songs.server.ts'
import { event, setlist, setlistItem, song, user } from '#app/platform/db/schema.ts'
import { daysFrom, insertEvent } from '../support/events.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'

/*
 * The setlist rules on a real database: the library, saves guarded by a version (the second of two
 * admins is refused and gets the newer version), refused input that leaves nothing half-written,
 * the CSV import's preview, and the public page that follows a published setlist.
 */
let env: TestPlatform
let adminId: string
beforeAll(async () => {
	env = await startTestPlatform()
	adminId = newSetlistId()
	await db()
		.insert(user)
		.values({ id: adminId, name: 'Régie', email: `regie-${adminId}@exemple.fr`, role: 'admin' })
})
afterAll(async () => {
	await env?.stop()
})

const db = () => env.platform.database.db

const songValues = (title: string, extra: Record<string, string> = {}) => SongFormSchema.parse({ title, ...extra })
const item = (kind: 'song' | 'set' | 'encore' | 'note', extra: { songId?: string; label?: string; notes?: string; id?: string } = {}) => ({
	id: extra.id ?? newSetlistId(),
	kind,
	songId: extra.songId ?? null,
	label: extra.label ?? '',
	notes: extra.notes ?? '',
})

describe('song form', () => {
	it('refuses « 7:99 », an empty title and an impossible tempo, in French', () => {
		const result = SongFormSchema.safeParse({ title: '  ', duration: '7:99', tempo: '1000' })
		expect(result.success).toBe(false)
		const messages = result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
		expect(messages).toContain('title: Donnez un titre au morceau.')
		expect(messages.find((m) => m.startsWith('duration:'))).toMatch(/minutes et secondes/)
		expect(messages.find((m) => m.startsWith('tempo:'))).toMatch(/battements par minute/)
	})

	it('reads « 4:05 » as 245 seconds and leaves empty fields null', () => {
		const value = SongFormSchema.parse({ title: 'Les Lilas', duration: '4:05', tempo: '' })
		expect(value).toMatchObject({ title: 'Les Lilas', duration: 245, tempo: null, originalArtist: null })
	})
})

describe('library', () => {
	it('searches without accents, sorts, archives', async () => {
		const a = await createSong(db(), songValues('Été indien', { originalArtist: 'Joe Dassin', duration: '3:50', tempo: '96' }))
		const b = await createSong(db(), songValues('Zéro de conduite', { duration: '5:10', tempo: '140' }))
		expect((await listSongs(db(), { query: 'ete' })).rows.map((r) => r.id)).toEqual([a])
		expect((await listSongs(db(), { query: 'dassin' })).rows.map((r) => r.id)).toEqual([a])
		const byTempo = (await listSongs(db(), { sort: 'tempo' })).rows.map((r) => r.id)
		expect(byTempo.indexOf(b)).toBeLessThan(byTempo.indexOf(a))
		expect(await setSongArchived(db(), b, true)).toEqual({ title: 'Zéro de conduite' })
		expect((await listSongs(db())).rows.map((r) => r.id)).not.toContain(b)
		expect((await listSongs(db(), { archived: true })).rows.map((r) => r.id)).toContain(b)
	})
})

describe('saving a setlist', () => {
	it('keeps the order given and moves the version by one', async () => {
		const s1 = await createSong(db(), songValues('Premier'))
		const s2 = await createSong(db(), songValues('Second'))
		const id = await createSetlist(db(), 'Tournée', adminId)
		const items = [
			item('song', { songId: s1 }),
			item('note', { label: 'accordage' }),
			item('encore'),
			item('song', { songId: s2, notes: 'avec invité' }),
		]
		expect(await saveSetlist(db(), id, { name: 'Tournée 2026', version: 1, items }, adminId)).toEqual({ ok: true, version: 2 })
		const reordered = [items[3]!, items[0]!, items[1]!, items[2]!]
		expect(await saveSetlist(db(), id, { name: 'Tournée 2026', version: 2, items: reordered }, adminId)).toEqual({ ok: true, version: 3 })
		const stored = await getSetlist(db(), id)
		expect(stored!.items.map((i) => i.id)).toEqual(reordered.map((i) => i.id))
		expect(stored!.items[0]!.notes).toBe('avec invité')
		expect(stored!.version).toBe(3)
	})

	it('refuses a stale version: the second admin is told and gets the newer version, nothing overwritten', async () => {
		const s1 = await createSong(db(), songValues('Une'))
		const id = await createSetlist(db(), 'Deux admins', adminId)
		// Both open version 1; the first saves.
		const first = await saveSetlist(db(), id, { name: 'Version de Léa', version: 1, items: [item('song', { songId: s1 })] }, adminId)
		expect(first).toEqual({ ok: true, version: 2 })
		const second = await saveSetlist(db(), id, { name: 'Version de Max', version: 1, items: [] }, adminId)
		expect(second.ok).toBe(false)
		if (second.ok) return
		expect(second.reason).toBe('stale')
		expect(second.current).toMatchObject({ name: 'Version de Léa', version: 2 })
		expect(second.current!.items).toHaveLength(1)
		const stored = await getSetlist(db(), id)
		expect(stored).toMatchObject({ name: 'Version de Léa', version: 2 })
	})

	it('lets only one of two simultaneous saves from the same version through', async () => {
		const id = await createSetlist(db(), 'Course', adminId)
		const results = await Promise.all([
			saveSetlist(db(), id, { name: 'A', version: 1, items: [item('note', { label: 'A' })] }, adminId),
			saveSetlist(db(), id, { name: 'B', version: 1, items: [item('note', { label: 'B' })] }, adminId),
		])
		expect(results.filter((r) => r.ok)).toHaveLength(1)
		const stored = await getSetlist(db(), id)
		expect(stored!.version).toBe(2)
		expect(stored!.items).toHaveLength(1)
		expect(stored!.items[0]!.label).toBe(stored!.name)
	})

	it('refuses a reorder naming items of another setlist, and writes nothing', async () => {
		const s1 = await createSong(db(), songValues('À moi'))
		const mine = await createSetlist(db(), 'La mienne', adminId)
		const other = await createSetlist(db(), 'L’autre', adminId)
		const otherItem = item('song', { songId: s1 })
		expect((await saveSetlist(db(), other, { name: 'L’autre', version: 1, items: [otherItem] }, adminId)).ok).toBe(true)
		const result = await saveSetlist(
			db(),
			mine,
			{ name: 'Renommée', version: 1, items: [item('note', { label: 'x' }), otherItem] },
			adminId,
		)
		expect(result).toMatchObject({ ok: false, reason: 'foreign-items' })
		expect(await getSetlist(db(), mine)).toMatchObject({ name: 'La mienne', version: 1, items: [] })
		const theirs = await getSetlist(db(), other)
		expect(theirs!.items.map((i) => i.id)).toEqual([otherItem.id])
	})

	it('refuses an unknown song or an item twice, leaving the setlist as it was', async () => {
		const s1 = await createSong(db(), songValues('Reste'))
		const id = await createSetlist(db(), 'Intacte', adminId)
		const kept = item('song', { songId: s1 })
		await saveSetlist(db(), id, { name: 'Intacte', version: 1, items: [kept] }, adminId)
		expect(
			await saveSetlist(db(), id, { name: 'X', version: 2, items: [item('song', { songId: 'inconnu123456' })] }, adminId),
		).toMatchObject({
			ok: false,
			reason: 'unknown-songs',
		})
		expect(await saveSetlist(db(), id, { name: 'X', version: 2, items: [kept, kept] }, adminId)).toMatchObject({
			ok: false,
			reason: 'duplicate-items',
		})
		const stored = await getSetlist(db(), id)
		expect(stored).toMatchObject({ name: 'Intacte', version: 2 })
		expect(stored!.items.map((i) => i.id)).toEqual([kept.id])
	})

	it('the save form refuses unreadable items and an empty name in French', () => {
		const result = SetlistSaveSchema.safeParse({ name: '', version: '3', items: '{pas du json' })
		expect(result.success).toBe(false)
		const messages = result.error!.issues.map((issue) => issue.message)
		expect(messages).toContain('Donnez un nom à la setlist.')
		expect(messages.some((m) => m.includes('illisible'))).toBe(true)
	})

	it('duplicates a setlist with new item ids, unattached and unpublished', async () => {
		const s1 = await createSong(db(), songValues('Copiée'))
		const id = await createSetlist(db(), 'Originale', adminId)
		await saveSetlist(
			db(),
			id,
			{ name: 'Originale', version: 1, items: [item('set', { label: 'Set acoustique' }), item('song', { songId: s1 })] },
			adminId,
		)
		const copy = await duplicateSetlist(db(), id, adminId, (name) => `${name} (copie)`)
		const [source, copied] = await Promise.all([getSetlist(db(), id), getSetlist(db(), copy!)])
		expect(copied).toMatchObject({ name: 'Originale (copie)', version: 1, published: false, event: null })
		expect(copied!.items.map((i) => [i.kind, i.label, i.song?.id ?? null])).toEqual(
			source!.items.map((i) => [i.kind, i.label, i.song?.id ?? null]),
		)
		expect(copied!.items.map((i) => i.id)).not.toEqual(source!.items.map((i) => i.id))
	})
})

describe('attaching and publishing', () => {
	it('one setlist per event; the event page shows the published setlist and follows its changes', async () => {
		const eventId = await insertEvent(db(), { title: 'Concert passé', startsAt: daysFrom(-3) })
		const cover = await createSong(db(), songValues('Nuit blanche', { originalArtist: 'Les Autres' }))
		const own = await createSong(db(), songValues('Chez nous'))
		const id = await createSetlist(db(), 'Setlist du concert', adminId)
		await saveSetlist(
			db(),
			id,
			{
				name: 'Setlist du concert',
				version: 1,
				items: [
					item('song', { songId: own }),
					item('note', { label: 'discours' }),
					item('encore'),
					item('song', { songId: cover, notes: 'avec invité' }),
				],
			},
			adminId,
		)
		expect(await attachSetlist(db(), id, eventId)).toEqual({ ok: true })
		const other = await createSetlist(db(), 'Concurrente', adminId)
		expect(await attachSetlist(db(), other, eventId)).toEqual({ ok: false, reason: 'event-taken', takenBy: 'Setlist du concert' })

		// Not published yet: nothing public.
		const before = await cachedEventDetail(db(), eventId)
		expect(await publishedSetlistOfEvent(db(), eventId, before!.version)).toBeNull()

		await setSetlistPublished(db(), id, true)
		const published = await cachedEventDetail(db(), eventId)
		expect(published!.version).not.toBe(before!.version)
		const shown = await publishedSetlistOfEvent(db(), eventId, published!.version)
		expect(shown).toEqual({
			songCount: 2,
			sections: [
				{ kind: 'main', label: '', encoreNumber: 0, songs: [{ title: 'Chez nous', originalArtist: null, notes: '', number: 1 }] },
				{
					kind: 'encore',
					label: '',
					encoreNumber: 1,
					songs: [{ title: 'Nuit blanche', originalArtist: 'Les Autres', notes: 'avec invité', number: 2 }],
				},
			],
		})

		// A song renamed in the library changes the page (its version moves).
		await updateSong(db(), own, songValues('Chez nous (version longue)'))
		const renamed = await cachedEventDetail(db(), eventId)
		expect(renamed!.version).not.toBe(published!.version)
		expect((await publishedSetlistOfEvent(db(), eventId, renamed!.version))!.sections[0]!.songs[0]!.title).toBe(
			'Chez nous (version longue)',
		)

		// Withdrawn: gone from the page.
		await setSetlistPublished(db(), id, false)
		const withdrawn = await cachedEventDetail(db(), eventId)
		expect(await publishedSetlistOfEvent(db(), eventId, withdrawn!.version)).toBeNull()
		const [row] = await db().select({ eventId: setlist.eventId }).from(setlist).where(eq(setlist.id, id))
		expect(row!.eventId).toBe(eventId)
	})

	it('deleting the event leaves the setlist, detached', async () => {
		const eventId = await insertEvent(db(), { title: 'Annulé', startsAt: daysFrom(10) })
		const id = await createSetlist(db(), 'Orpheline', adminId)
		await attachSetlist(db(), id, eventId)
		await db().delete(event).where(eq(event.id, eventId))
		expect((await getSetlist(db(), id))!.event).toBeNull()
	})
})

describe('CSV import', () => {
	const encode = (text: string) => new TextEncoder().encode(text)

	it('previews what it will create and which lines it refuses, then creates exactly that', async () => {
		await createSong(db(), songValues('Déjà là'))
		const csv = [
			'Titre;Artiste original;Durée;Tonalité;Tempo;Notes',
			'Premier import;;3:30;Mi mineur;120;',
			'Reprise importée;Les Anciens;4:05;;;capo 2',
			'Mauvaise durée;;7:99;;;',
			';;3:00;;;',
			'Déjà là;;;;;',
			'Premier import;;3:31;;;',
		].join('\r\n')
		const preview = await previewSongCsv(db(), encode(`\uFEFF${csv}`))
		expect(preview.ok).toBe(true)
		if (!preview.ok) return
		expect(preview.separator).toBe(';')
		expect(preview.create.map((r) => [r.line, r.title, r.duration])).toEqual([
			[2, 'Premier import', '3:30'],
			[3, 'Reprise importée', '4:05'],
		])
		expect(preview.rejected.map((r) => [r.line, r.reason])).toEqual([
			[4, expect.stringMatching(/minutes et secondes/)],
			[5, 'Donnez un titre au morceau.'],
			[6, 'Déjà dans le répertoire.'],
			[7, 'En double dans le fichier (ligne 2).'],
		])
		const before = (await db().select({ id: song.id }).from(song)).length
		expect(await importSongCsv(db(), encode(csv))).toEqual({ ok: true, created: 2, rejected: 4 })
		expect((await db().select({ id: song.id }).from(song)).length).toBe(before + 2)
	})

	it('reads Windows-1252 and commas; refuses UTF-16 and an unknown separator in French, creating nothing', async () => {
		const latin1 = Uint8Array.from([...'title,duration\nCaf'].map((c) => c.charCodeAt(0)).concat([0xe9, 0x2c, 0x32, 0x3a, 0x30, 0x30]))
		const preview = await previewSongCsv(db(), latin1)
		expect(preview).toMatchObject({ ok: true, encoding: 'windows-1252', separator: ',', create: [{ title: 'Café', duration: '2:00' }] })

		const before = (await db().select({ id: song.id }).from(song)).length
		const utf16 = new Uint8Array([0xff, 0xfe, ...encode('t\0i\0t\0r\0e\0')])
		expect(await importSongCsv(db(), utf16)).toEqual({ ok: false, error: expect.stringMatching(/CSV UTF-8/) })
		expect(await importSongCsv(db(), encode('titre|durée\nA|3:00'))).toEqual({ ok: false, error: expect.stringMatching(/point-virgule/) })
		expect(await importSongCsv(db(), encode('nom;durée\nA;3:00'))).toEqual({ ok: false, error: expect.stringMatching(/titre/) })
		expect((await db().select({ id: song.id }).from(song)).length).toBe(before)
	})
})

describe('items are stored as given', () => {
	it('positions are 0..n-1', async () => {
		const id = await createSetlist(db(), 'Positions', adminId)
		const items = [item('note', { label: 'a' }), item('note', { label: 'b' }), item('note', { label: 'c' })]
		await saveSetlist(db(), id, { name: 'Positions', version: 1, items }, adminId)
		const rows = await db().select({ position: setlistItem.position }).from(setlistItem).where(eq(setlistItem.setlistId, id))
		expect(rows.map((r) => r.position).sort()).toEqual([0, 1, 2])
	})
})
