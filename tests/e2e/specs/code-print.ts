/*
 * A batch's print sheet in Chromium: styled on screen, and in print media at A4 every card holds
 * a QR code that a decoder reads back as `<site>/redeem?code=<the code printed under it>`. The
 * sheet is printed to PDF (one A4 page per ten cards, none cut) and shot as a PNG in print media,
 * which is cut along the sheet's own millimetre grid and decoded card by card (jsQR).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import jsQR from 'jsqr'
import type { BrowserContext, Page } from 'playwright-core'
import sharp from 'sharp'
import { signInAdmin } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { closeAll, h, newVisitor, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

const CARDS = 25
/** The sheet's geometry (styles/code-sheet.css), in millimetres. */
const GRID = { left: 20, top: 13.5, width: 85, height: 54, columns: 2, rows: 5 }
/** CSS pixels per millimetre (96 dpi). */
const PX_PER_MM = 96 / 25.4
/** The screenshot's scale: about 190 dpi, less than any printer. */
const SCALE = 2

/** The QR code in one card's cell of a PNG shot of a sheet, decoded; null when none is found. */
async function decodeCell(png: Buffer, column: number, row: number): Promise<string | null> {
	const mm = PX_PER_MM * SCALE
	const { data, info } = await sharp(png)
		.extract({
			left: Math.round((GRID.left + column * GRID.width) * mm),
			top: Math.round((GRID.top + row * GRID.height) * mm),
			width: Math.round(GRID.width * mm),
			height: Math.round(GRID.height * mm),
		})
		.ensureAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true })
	return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null
}

/** Pages in a PDF that Chromium printed (its page objects). */
function pdfPages(pdf: Buffer): number {
	return pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0
}

export function codePrintSpecs() {
	describe('the code print sheet', () => {
		let adminContext: BrowserContext
		let printUrl = ''
		let codes: string[] = []

		before(async () => {
			adminContext = await newVisitor({ deviceScaleFactor: SCALE })
			await signInAdmin(adminContext)
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/codes/new')
			await page.getByLabel(t('admin.codes.form.name')).fill('Planche « Été »')
			await page.getByRole('button', { name: t('admin.codes.form.create') }).click()
			await waitForPath(page, (url) => /^\/dashboard\/admin\/codes\/[A-Za-z0-9_-]{16}$/.test(url.pathname))
			await page.getByLabel(t('admin.codes.batches.count')).fill(String(CARDS))
			await page.getByRole('button', { name: t('admin.codes.batches.generate') }).click()
			const exportLink = page.getByRole('link', { name: t('admin.codes.batches.export') })
			await exportLink.waitFor({ timeout: 30_000 })
			const href = (await exportLink.getAttribute('href'))!
			const csv = await (await adminContext.request.get(href)).text()
			codes = csv
				.trim()
				.split('\r\n')
				.slice(1)
				.map((line) => line.split(',')[0]!)
			assert.equal(codes.length, CARDS)
			printUrl = href.replace('export.csv', 'print')
			await page.close()
		})
		after(() => closeAll(adminContext))

		test('on screen: A4 sheets of 85 × 54 mm cards, each with a drawn QR code and its code', async () => {
			const page = await adminContext.newPage()
			await visit(page, printUrl)
			await page.getByRole('heading', { name: t('admin.codes.print.title', { campaign: 'Planche « Été »' }) }).waitFor()
			assert.equal(await page.locator('.code-sheet').count(), Math.ceil(CARDS / 10))
			const card = (await page.locator('.code-card').first().boundingBox())!
			assert.ok(Math.abs(card.width - 85 * PX_PER_MM) < 1 && Math.abs(card.height - 54 * PX_PER_MM) < 1, JSON.stringify(card))
			const qr = (await page.locator('.code-card svg').first().boundingBox())!
			assert.ok(Math.abs(qr.width - 30 * PX_PER_MM) < 1 && Math.abs(qr.height - 30 * PX_PER_MM) < 1, JSON.stringify(qr))
			const printed = await page.locator('.code-card-code').allTextContents()
			assert.deepEqual([...printed].sort(), [...codes].sort())
			await audit(page, 'admin code print sheet')
			if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: path.join(process.env.E2E_SHOTS_DIR, 'code-print-1280.png') })
			await page.close()
		})

		test('printed at A4 in Chromium: one page per ten cards, and every QR code decodes to its card’s /redeem link', async () => {
			const page: Page = await adminContext.newPage()
			await visit(page, printUrl)
			await page.emulateMedia({ media: 'print' })
			assert.equal(await page.getByRole('heading', { level: 1 }).isVisible(), false, 'the toolbar is not printed')

			const pdf = await page.pdf({ format: 'A4', printBackground: true })
			assert.equal(pdfPages(pdf), Math.ceil(CARDS / 10), 'one A4 page per sheet of ten cards')
			if (process.env.E2E_SHOTS_DIR) fs.writeFileSync(path.join(process.env.E2E_SHOTS_DIR, 'code-print-a4.pdf'), pdf)

			const sheets = page.locator('.code-sheet')
			const printedOn = await page.locator('.code-card-code').allTextContents()
			const decoded: string[] = []
			for (let s = 0; s < (await sheets.count()); s++) {
				const png = await sheets.nth(s).screenshot()
				if (process.env.E2E_SHOTS_DIR) fs.writeFileSync(path.join(process.env.E2E_SHOTS_DIR, `code-print-a4-sheet-${s + 1}.png`), png)
				for (let index = 0; index < 10 && s * 10 + index < CARDS; index++) {
					const text = await decodeCell(png, index % GRID.columns, Math.floor(index / GRID.columns))
					const code = printedOn[s * 10 + index]!
					assert.equal(text, `${h.origin}/redeem?code=${code}`, `sheet ${s + 1}, card ${index + 1}`)
					decoded.push(code)
				}
			}
			assert.deepEqual([...decoded].sort(), [...codes].sort(), 'every code of the batch, once')
			console.log(`decoded ${decoded.length} QR codes of ${CARDS} cards on ${await sheets.count()} A4 sheets, each its card's /redeem link`)
			await page.close()
		})
	})
}
