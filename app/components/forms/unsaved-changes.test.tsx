// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { useState } from 'react'
import { createRoutesStub, Form, Link, redirect } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import translation from '../../../public/locales/fr-FR/translation.json'
import { I18nProvider } from '#app/i18n/react.tsx'
import type { Resources } from '#app/i18n/translate.ts'
import { UnsavedChangesDialog, useUnsavedChanges } from './unsaved-changes.tsx'

/*
 * The guard against leaving a form with unsaved changes, on a stubbed router: a link away asks
 * first, « Rester » keeps what was typed, « Quitter » goes, also while a field's check is being
 * posted; a clean form, a move within the page and the form's own save go through; closing the
 * tab asks only while something is unsaved.
 */
const t = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], translation) as string
const BODY = 'Ce qui a été saisi sera perdu.'

function Editor() {
	const [text, setText] = useState('')
	const { blocker, markSubmitting } = useUnsavedChanges(text !== '')
	return (
		<>
			<Form method="post" onSubmit={markSubmitting}>
				<label>
					Texte
					<input name="text" value={text} onChange={(e) => setText(e.target.value)} />
				</label>
				<button type="submit">Enregistrer</button>
				{/* How Conform asks the server about a field as it loses the focus: a post that is no save. */}
				<button type="submit" name="__intent__" value="validate">
					Vérifier
				</button>
			</Form>
			<Link to="/ailleurs">Ailleurs</Link>
			<Link to="?onglet=2">Autre onglet</Link>
			<UnsavedChangesDialog blocker={blocker} body={BODY} />
		</>
	)
}

/** The answer to a field check: held until the test lets it go, so a click can happen meanwhile. */
let pendingCheck = Promise.withResolvers<null>()

function renderEditor() {
	pendingCheck = Promise.withResolvers<null>()
	const Stub = createRoutesStub([
		{
			path: '/editeur',
			Component: Editor,
			action: async ({ request }) => {
				if ((await request.formData()).has('__intent__')) return pendingCheck.promise
				return redirect('/ailleurs')
			},
		},
		{ path: '/ailleurs', Component: () => <p>Autre page</p> },
	])
	render(
		<I18nProvider language="fr-FR" resources={translation as Resources}>
			<Stub initialEntries={['/editeur']} />
		</I18nProvider>,
	)
	return { user: userEvent.setup() }
}

/** Whether closing the tab now would make the browser ask. */
function unloadAsks() {
	const event = new Event('beforeunload', { cancelable: true })
	window.dispatchEvent(event)
	return event.defaultPrevented
}

/** The leave dialog: always in the page, open only while a navigation waits for an answer. */
const leaveOpen = () => document.querySelector('dialog')?.open === true

afterEach(() => {
	pendingCheck.resolve(null)
	cleanup()
})

describe('useUnsavedChanges', () => {
	it('lets a clean form go without asking', async () => {
		const { user } = renderEditor()
		expect(unloadAsks()).toBe(false)
		await user.click(screen.getByRole('link', { name: 'Ailleurs' }))
		await screen.findByText('Autre page')
	})

	it('asks before leaving with unsaved changes: « Rester » keeps the input, « Quitter » goes', async () => {
		const { user } = renderEditor()
		await user.type(screen.getByLabelText('Texte'), 'Bis')
		expect(unloadAsks()).toBe(true)

		await user.click(screen.getByRole('link', { name: 'Ailleurs' }))
		await waitFor(() => expect(leaveOpen()).toBe(true))
		expect(screen.getByRole('dialog', { name: t('common.leave.title') }).textContent).toContain(BODY)
		await user.click(screen.getByRole('button', { name: t('common.leave.stay'), hidden: true }))
		await waitFor(() => expect(leaveOpen()).toBe(false))
		expect((screen.getByLabelText('Texte') as HTMLInputElement).value).toBe('Bis')

		await user.click(screen.getByRole('link', { name: 'Ailleurs' }))
		await waitFor(() => expect(leaveOpen()).toBe(true))
		await user.click(screen.getByRole('button', { name: t('common.leave.leave'), hidden: true }))
		await screen.findByText('Autre page')
		expect(unloadAsks()).toBe(false)
	})

	it('never stops a move within the same page', async () => {
		const { user } = renderEditor()
		await user.type(screen.getByLabelText('Texte'), 'Bis')
		await user.click(screen.getByRole('link', { name: 'Autre onglet' }))
		// Still on the editor, nothing asked, the input kept.
		await act(() => new Promise((resolve) => setTimeout(resolve, 20)))
		expect(leaveOpen()).toBe(false)
		expect((screen.getByLabelText('Texte') as HTMLInputElement).value).toBe('Bis')
	})

	it('still asks while Conform’s check of a field is on its way to the server', async () => {
		const { user } = renderEditor()
		await user.type(screen.getByLabelText('Texte'), 'Bis')
		await user.click(screen.getByRole('button', { name: 'Vérifier' }))
		await user.click(screen.getByRole('link', { name: 'Ailleurs' }))
		await waitFor(() => expect(leaveOpen()).toBe(true))
		expect(screen.queryByText('Autre page')).toBeNull()
	})

	it('lets the form’s own save and its redirect through', async () => {
		renderEditor()
		fireEvent.change(screen.getByLabelText('Texte'), { target: { value: 'Bis' } })
		fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }))
		await screen.findByText('Autre page')
		expect(leaveOpen()).toBe(false)
	})
})
