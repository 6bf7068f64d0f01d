/* Reading a form the way assistive technology does: a field by its label, its error by aria-describedby. */
import assert from 'node:assert/strict'
import type { Locator } from 'playwright-core'

/** The text of everything that describes this control (hint and error). */
export async function describedText(control: Locator): Promise<string> {
	return control.evaluate((element) => {
		const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
		return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
	})
}

/** Asserts that the control gets marked invalid and that its description carries the message. */
export async function assertFieldError(control: Locator, message: string, what: string): Promise<void> {
	try {
		await control.and(control.page().locator('[aria-invalid="true"]')).waitFor({ timeout: 10_000 })
	} catch {
		assert.fail(`${what}: the field was never marked aria-invalid="true" (its description reads « ${await describedText(control)} »)`)
	}
	const text = await describedText(control)
	assert.ok(text.includes(message), `${what}: expected « ${message} » next to the field; its description reads « ${text} »`)
}
