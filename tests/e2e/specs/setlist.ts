/*
 * The setlist in Chromium, as an admin works with it: songs added through the form (a duration
 * like « 7:99 » refused in French, what was typed kept, and kept again when leaving is asked
 * about and refused), a setlist built from them, then reordered with the keyboard alone — Espace
 * to take the item, the arrows to move it, Espace to drop it — with the French announcement a
 * screen reader reads; leaving with the new order unsaved asks first, and staying keeps it; saved,
 * and found in that order after a reload. A second tab saving over a newer version is told so and
 * sees the newer one.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { signInAdmin } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { closeAll, hydrated, newVisitor, SEQUENTIAL, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

const SONGS = ['Aube rouge', 'Béton armé', 'Chanson douce']

/** The titles of the builder's list, in order. */
async function order(page: Page): Promise<string[]> {
	return page.locator('ol[aria-label] > li[data-item-kind="song"] p.truncate').allInnerTexts()
}

export function setlistSpecs() {
	describe('the setlist', SEQUENTIAL, () => {
		let context: BrowserContext
		let setlistPath = ''

		before(async () => {
			context = await newVisitor()
			await signInAdmin(context)
		})
		after(() => closeAll(context))

		test('a song with the duration « 7:99 » is refused in French, and what was typed stays', async () => {
			const page = await context.newPage()
			await visit(page, '/dashboard/admin/setlist/songs/new')
			await page.getByLabel(t('setlist.song.fields.title')).fill(SONGS[0]!)
			await page.getByLabel(t('setlist.song.fields.duration')).fill('7:99')
			await page.getByRole('button', { name: t('setlist.song.create') }).click()
			const duration = page.getByLabel(t('setlist.song.fields.duration'))
			await page.getByText('Écrivez la durée en minutes et secondes').waitFor()
			assert.equal(await duration.getAttribute('aria-invalid'), 'true')
			assert.equal(await duration.inputValue(), '7:99')
			assert.equal(await page.getByLabel(t('setlist.song.fields.title')).inputValue(), SONGS[0])
			// The refused form is still unsaved: « Annuler » asks first, and staying keeps it.
			await page.getByRole('link', { name: t('setlist.song.cancel') }).click()
			const leave = page.getByRole('dialog', { name: t('common.leave.title') })
			await leave.getByText(t('setlist.song.leaveBody')).waitFor()
			await leave.getByRole('button', { name: t('common.leave.stay') }).click()
			await leave.waitFor({ state: 'hidden' })
			assert.equal(await duration.inputValue(), '7:99')
			await duration.fill('3:30')
			await page.getByRole('button', { name: t('setlist.song.create') }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/setlist/songs')
			for (const title of SONGS.slice(1)) {
				await visit(page, '/dashboard/admin/setlist/songs/new')
				await page.getByLabel(t('setlist.song.fields.title')).fill(title)
				await page.getByLabel(t('setlist.song.fields.duration')).fill('4:00')
				await page.getByRole('button', { name: t('setlist.song.create') }).click()
				await waitForPath(page, (url) => url.pathname === '/dashboard/admin/setlist/songs')
			}
			await hydrated(page)
			for (const title of SONGS) await page.getByRole('link', { name: title }).waitFor()
			// Audited as it opens (without the toast of the last save).
			await visit(page, '/dashboard/admin/setlist/songs')
			await audit(page, 'setlist library')
			await page.close()
		})

		test('a setlist is built from the library and reordered with the keyboard alone, announced in French', async () => {
			const page = await context.newPage()
			await visit(page, '/dashboard/admin/setlist')
			await page.getByLabel(t('setlist.list.newName')).fill('Répétition générale')
			await page.getByRole('button', { name: t('setlist.list.create') }).click()
			await waitForPath(page, (url) => /^\/dashboard\/admin\/setlist\/[\w-]{12}$/.test(url.pathname))
			await hydrated(page)
			setlistPath = new URL(page.url()).pathname
			for (const title of SONGS) await page.getByRole('button', { name: t('setlist.builder.addSong', { title }) }).click()
			assert.deepEqual(await order(page), SONGS)
			await page.getByRole('button', { name: t('setlist.builder.save') }).click()
			await page.getByText(t('setlist.builder.allSaved')).waitFor()

			// Every announcement the live region makes, in order (each replaces the one before).
			await page.evaluate(() => {
				const seen: string[] = []
				;(window as unknown as { announcements: string[] }).announcements = seen
				new MutationObserver(() => {
					const text = document.querySelector('[id^="DndLiveRegion"]')?.textContent ?? ''
					if (text && seen.at(-1) !== text) seen.push(text)
				}).observe(document.body, { subtree: true, childList: true, characterData: true })
			})
			const announcements = () => page.evaluate(() => (window as unknown as { announcements: string[] }).announcements)

			// Keyboard only: the first song's handle, Espace, two steps down, Espace.
			const handle = page.getByRole('button', { name: t('setlist.dnd.handle', { title: SONGS[0]!, position: 1, total: 3 }) })
			await handle.focus()
			assert.equal(await handle.getAttribute('aria-roledescription'), 'sortable')
			// Each key waits for what it announces, as a person listening would.
			const said = (text: string) =>
				page.waitForFunction((text) => document.querySelector('[id^="DndLiveRegion"]')?.textContent?.includes(text), text)
			// dnd-kit's keyboard sensor starts listening for the arrows in a setTimeout(0) after the
			// pick-up, which can come after the announcement: a key pressed in between is lost. One
			// turn of the page's timers lets it start, as a person's pause would.
			const pickedUp = async (title: string) => {
				await said(`«\u00a0${title}\u00a0»`)
				await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
			}
			await page.keyboard.press('Space')
			await pickedUp(SONGS[0]!)
			await page.keyboard.press('ArrowDown')
			await said('position 2 sur 3')
			await page.keyboard.press('ArrowDown')
			await said('position 3 sur 3')
			await page.keyboard.press('Space')
			const dropped = t('setlist.dnd.end', { title: SONGS[0]!, position: 3, total: 3 })
			await page.waitForFunction((text) => document.querySelector('[id^="DndLiveRegion"]')?.textContent === text, dropped)
			const heard = await announcements()
			for (const expected of [
				t('setlist.dnd.start', { title: SONGS[0]!, position: 1, total: 3 }),
				t('setlist.dnd.over', { title: SONGS[0]!, position: 2, total: 3 }),
				t('setlist.dnd.over', { title: SONGS[0]!, position: 3, total: 3 }),
				dropped,
			]) {
				assert.ok(heard.includes(expected), `announced « ${expected} » (heard: ${heard.join(' | ')})`)
			}
			assert.deepEqual(await order(page), [SONGS[1], SONGS[2], SONGS[0]])
			await page.getByText(t('setlist.builder.unsaved')).waitFor()

			// Leaving now asks first; « Rester sur la page » keeps the unsaved order.
			await page.getByRole('link', { name: t('setlist.builder.back') }).click()
			const leave = page.getByRole('dialog', { name: t('common.leave.title') })
			await leave.getByText(t('setlist.builder.leaveBody')).waitFor()
			await leave.getByRole('button', { name: t('common.leave.stay') }).click()
			await leave.waitFor({ state: 'hidden' })
			assert.equal(new URL(page.url()).pathname, setlistPath)
			assert.deepEqual(await order(page), [SONGS[1], SONGS[2], SONGS[0]])

			// Escape cancels a move: the order stays.
			await page.getByRole('button', { name: t('setlist.dnd.handle', { title: SONGS[1]!, position: 1, total: 3 }) }).focus()
			await page.keyboard.press('Space')
			await pickedUp(SONGS[1]!)
			await page.keyboard.press('ArrowDown')
			await said('position 2 sur 3')
			await page.keyboard.press('Escape')
			const cancelled = t('setlist.dnd.cancel', { title: SONGS[1]! })
			await page.waitForFunction((text) => document.querySelector('[id^="DndLiveRegion"]')?.textContent === text, cancelled)
			assert.deepEqual(await order(page), [SONGS[1], SONGS[2], SONGS[0]])

			// Saved from the keyboard too, and kept.
			await page.getByRole('button', { name: t('setlist.builder.save') }).focus()
			await page.keyboard.press('Enter')
			await page.getByText(t('setlist.builder.allSaved')).waitFor()
			await visit(page, setlistPath)
			await audit(page, 'setlist builder')
			assert.deepEqual(await order(page), [SONGS[1], SONGS[2], SONGS[0]])
			await page.close()
		})

		test('a save from an older copy is refused: the admin sees the newer version and can take their changes back', async () => {
			const first = await context.newPage()
			const second = await context.newPage()
			await visit(first, setlistPath)
			await visit(second, setlistPath)
			// The first tab renames and saves.
			await first.getByLabel(t('setlist.builder.name')).fill('Version de la première fenêtre')
			await first.getByRole('button', { name: t('setlist.builder.save') }).click()
			await first.getByText(t('setlist.builder.allSaved')).waitFor()
			// The second, still on the older version, removes a song and saves.
			await second.getByRole('button', { name: t('setlist.builder.remove', { title: SONGS[2]! }) }).click()
			await second.getByRole('button', { name: t('setlist.builder.save') }).click()
			await second
				.getByRole('alert')
				.filter({ hasText: t('setlist.builder.staleTitle') })
				.waitFor()
			assert.equal(await second.getByLabel(t('setlist.builder.name')).inputValue(), 'Version de la première fenêtre')
			assert.deepEqual(await order(second), [SONGS[1], SONGS[2], SONGS[0]])
			await second.getByRole('button', { name: t('setlist.builder.takeMine') }).click()
			assert.deepEqual(await order(second), [SONGS[1], SONGS[0]])
			await second.getByRole('button', { name: t('setlist.builder.save') }).click()
			await second.getByText(t('setlist.builder.allSaved')).waitFor()
			await first.close()
			await second.close()
		})

		test('a song is dragged with the mouse to the top of the list', async () => {
			const page = await context.newPage()
			await visit(page, setlistPath)
			assert.deepEqual(await order(page), [SONGS[1], SONGS[0]])
			const from = await page
				.getByRole('button', { name: t('setlist.dnd.handle', { title: SONGS[0]!, position: 2, total: 2 }) })
				.boundingBox()
			const to = await page
				.getByRole('button', { name: t('setlist.dnd.handle', { title: SONGS[1]!, position: 1, total: 2 }) })
				.boundingBox()
			assert.ok(from && to)
			await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
			await page.mouse.down()
			// In steps, past the sensor's few pixels of tolerance, to above the first item.
			for (let step = 1; step <= 10; step++) {
				await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + ((to.y - from.y - 10) * step) / 10)
			}
			await page.mouse.up()
			assert.deepEqual(await order(page), [SONGS[0], SONGS[1]])
			await page.getByRole('button', { name: t('setlist.builder.save') }).click()
			await page.getByText(t('setlist.builder.allSaved')).waitFor()
			await visit(page, setlistPath)
			assert.deepEqual(await order(page), [SONGS[0], SONGS[1]])
			await page.close()
		})
		test('« Publier » waits while the builder has unsaved changes, and publishes the saved version', async () => {
			const page = await context.newPage()
			await visit(page, setlistPath)
			const publish = page.getByRole('button', { name: t('setlist.event.publish') })
			assert.equal(await publish.isEnabled(), true)
			await page.getByRole('button', { name: t('setlist.builder.remove', { title: SONGS[1]! }) }).click()
			await page.getByText(t('setlist.builder.unsaved')).waitFor()
			assert.equal(await publish.isDisabled(), true)
			await page.getByText(t('setlist.event.saveFirst')).waitFor()
			await page.getByRole('button', { name: t('setlist.builder.save') }).click()
			await page.getByText(t('setlist.builder.allSaved')).waitFor()
			assert.equal(await publish.isEnabled(), true)
			await publish.click()
			await page.getByRole('button', { name: t('setlist.event.unpublish') }).waitFor()
			assert.deepEqual(await order(page), [SONGS[0]])
			await page.close()
		})
		test('an unknown song, setlist or event: the screen’s own 404 inside the admin area, with its way back and no stack', async () => {
			const page = await context.newPage()
			const screens: [path: string, title: string, back: string, list: string][] = [
				['/dashboard/admin/setlist/songs/inconnu1234', 'setlist.song.notFoundTitle', 'setlist.song.back', '/dashboard/admin/setlist/songs'],
				['/dashboard/admin/setlist/inconnue1234', 'setlist.notFound.title', 'setlist.builder.back', '/dashboard/admin/setlist'],
				['/dashboard/admin/events/AAAAAAAAAAAA', 'admin.events.notFound.title', 'admin.events.editor.back', '/dashboard/admin/events'],
			]
			for (const [path, title, back, list] of screens) {
				const response = await visit(page, path)
				assert.equal(response.status(), 404, path)
				await page.getByRole('heading', { level: 1, name: t(title) }).waitFor()
				assert.match(await page.title(), new RegExp(`^${t(title)} · `))
				assert.equal(await page.getByRole('link', { name: t(back) }).getAttribute('href'), list)
				// The admin's navigation is still there, and nothing of the code's insides is shown.
				await page.getByRole('navigation').first().waitFor()
				assert.equal(await page.locator('pre').count(), 0)
			}
			await page.close()
		})
	})
}
