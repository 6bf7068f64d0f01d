// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { createRoutesStub } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import translation from '../../../../public/locales/fr-FR/translation.json'
import { I18nProvider } from '#app/i18n/react.tsx'
import type { Resources } from '#app/i18n/translate.ts'
import { eventFormValues } from '#app/features/events/editor.server.ts'
import { EVENT_LIMITS } from '#app/features/events/forms.ts'
import { EventEditorForm } from './event-editor-form.tsx'
import type { EventEditorData } from './types.ts'

/*
 * The editor's form in a browser-like DOM, behind a stubbed route: what a refused save does to
 * what was typed, that typing sends nothing to the server (its action counts every post), and that
 * a refused save does not stop the editor from asking before it is left.
 */
const t = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], translation) as string

const newEvent: EventEditorData = {
	formKey: 'k',
	event: null,
	values: eventFormValues(null),
	cover: null,
	descriptionHtml: '',
	constraint: {},
	limits: { description: EVENT_LIMITS.description },
	defaultDurationMs: 3 * 3600_000,
	place: null,
}

function renderEditor() {
	const posts: FormData[] = []
	const Stub = createRoutesStub([
		{
			path: '/dashboard/admin/events/new',
			Component: () => <EventEditorForm loaderData={newEvent} />,
			action: async ({ request }) => {
				posts.push(await request.formData())
				return null
			},
		},
		{ path: '/dashboard/admin/events', Component: () => <p>liste</p> },
	])
	render(
		<I18nProvider language="fr-FR" resources={translation as Resources}>
			<Stub initialEntries={['/dashboard/admin/events/new']} />
		</I18nProvider>,
	)
	return { posts }
}

afterEach(cleanup)

describe('EventEditorForm', () => {
	it('refuses an empty save in the browser, keeps the form, and clears a message as the field is fixed', async () => {
		const user = userEvent.setup()
		const { posts } = renderEditor()
		const title = screen.getByLabelText(t('admin.events.fields.title'))
		await user.type(screen.getByLabelText(t('admin.events.fields.venueName')), 'La Cigale')
		await user.click(screen.getByRole('button', { name: t('admin.events.editor.saveDraft') }))

		await waitFor(() => expect(title.getAttribute('aria-invalid')).toBe('true'))
		// The sentence holds a no-break space before its colon: compared as it is.
		expect(screen.getByText(t('admin.events.editor.refused'), { normalizer: (text) => text })).toBeTruthy()
		await user.type(title, 'L')
		expect((title as HTMLInputElement).value).toBe('L')
		expect((screen.getByLabelText(t('admin.events.fields.venueName')) as HTMLInputElement).value).toBe('La Cigale')
		await waitFor(() => expect(title.getAttribute('aria-invalid')).toBeNull())
		expect(posts).toHaveLength(0)
	})

	it('names the country under its code, with the form’s own check', async () => {
		const user = userEvent.setup()
		renderEditor()
		const country = screen.getByLabelText(t('admin.events.fields.country'))
		await user.clear(country)
		await user.type(country, 'BE')
		expect(screen.getByText('Belgique')).toBeTruthy()
		await user.clear(country)
		await user.type(country, 'UK')
		expect(screen.queryByText('Royaume-Uni')).toBeNull()
	})

	it('still asks before leaving after a save the browser refused', async () => {
		const user = userEvent.setup()
		renderEditor()
		await user.type(screen.getByLabelText(t('admin.events.fields.venueName')), 'La Cigale')
		await user.click(screen.getByRole('button', { name: t('admin.events.editor.saveDraft') }))
		await waitFor(() => expect(screen.getByLabelText(t('admin.events.fields.title')).getAttribute('aria-invalid')).toBe('true'))

		await user.click(screen.getByRole('link', { name: t('admin.events.editor.back') }))
		await waitFor(() => expect(document.querySelector('dialog')?.open).toBe(true))
		expect(screen.queryByText('liste')).toBeNull()
	})
})
