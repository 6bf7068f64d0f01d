// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { createRoutesStub, useActionData, useLoaderData } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import translation from '../../../../public/locales/fr-FR/translation.json'
import { I18nProvider } from '#app/i18n/react.tsx'
import type { Resources } from '#app/i18n/translate.ts'
import { SettingsPage } from './settings-page.tsx'
import type { SettingsActionData, SettingsData } from './types.ts'

/*
 * The settings sections in a browser-like DOM behind a stubbed route: each form checks what is
 * typed in the browser with its schema, keeps it after a refusal, and posts only a valid form (the
 * stub's action records the posts and refuses the profile like the server would).
 */
const t = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], translation) as string

const member: SettingsData = {
	formKey: 'k',
	profile: { name: 'Ysé Martin', city: 'Lyon', email: 'yse@exemple.fr', emailVerified: true },
	avatar: null,
	hasPassword: true,
	methods: [{ id: 'a1', providerId: 'credential', name: 'E-mail et mot de passe', linkedAt: '2026-01-02T10:00:00.000Z' }],
	linkable: [],
	sessions: [
		{
			id: 's1',
			createdAt: '2026-11-20T10:00:00.000Z',
			lastActiveAt: '2026-11-22T14:45:00.000Z',
			device: 'Firefox sur Linux',
			mobile: false,
			ipAddress: '203.0.113.9',
			current: true,
		},
	],
	emailSent: false,
	linkNotice: null,
	constraint: { profile: {}, email: {}, password: {}, deletion: {} },
}

function renderSettings() {
	const posts: Array<Record<string, FormDataEntryValue>> = []
	function Page() {
		return <SettingsPage loaderData={useLoaderData() as SettingsData} actionData={useActionData() as SettingsActionData} />
	}
	const Stub = createRoutesStub([
		{
			path: '/dashboard/settings',
			Component: Page,
			loader: () => member,
			action: async ({ request }) => {
				const form = Object.fromEntries(await request.formData())
				posts.push(form)
				// As the server answers a name it refuses for its own reasons (a limit, say): a form error.
				return { intent: 'profile', result: { status: 'error', initialValue: form, error: { '': ['Trop de tentatives.'] } } }
			},
		},
	])
	render(
		<I18nProvider language="fr-FR" resources={translation as Resources}>
			<Stub initialEntries={['/dashboard/settings']} />
		</I18nProvider>,
	)
	return { posts }
}

afterEach(cleanup)

describe('SettingsPage', () => {
	it('checks each section in the browser and keeps what was typed after a refusal', async () => {
		const user = userEvent.setup()
		const { posts } = renderSettings()
		const name = await screen.findByLabelText(t('settings.profile.name'))
		await user.clear(name)
		await user.click(within(document.getElementById('form-profil')!).getByRole('button', { name: t('settings.profile.submit') }))
		await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'))
		await user.type(name, 'Y')
		expect((name as HTMLInputElement).value).toBe('Y')
		await waitFor(() => expect(name.getAttribute('aria-invalid')).toBeNull())

		const password = screen.getByLabelText(t('settings.password.newPassword'))
		await user.type(password, 'court')
		await user.click(screen.getByRole('button', { name: t('settings.password.submit') }))
		await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'))
		await user.type(password, 's')
		expect((password as HTMLInputElement).value).toBe('courts')
		expect(posts).toHaveLength(0)
	})

	it('posts a valid form with its intent, and a server refusal keeps the typed name', async () => {
		const user = userEvent.setup()
		const { posts } = renderSettings()
		const name = await screen.findByLabelText(t('settings.profile.name'))
		await user.clear(name)
		await user.type(name, 'Ysé M.')
		await user.click(within(document.getElementById('form-profil')!).getByRole('button', { name: t('settings.profile.submit') }))
		await screen.findByText('Trop de tentatives.')
		expect(posts).toEqual([{ intent: 'profile', name: 'Ysé M.', city: 'Lyon' }])
		expect((screen.getByLabelText(t('settings.profile.name')) as HTMLInputElement).value).toBe('Ysé M.')
	})

	it('lists the devices with their last activity in Paris time', async () => {
		renderSettings()
		const devices = await screen.findByRole('region', { name: t('settings.sessions.title') })
		expect(within(devices).getByText('Firefox sur Linux')).toBeTruthy()
		expect(devices.textContent).toContain('15 h 45')
	})
})
