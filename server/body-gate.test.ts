import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { createRequiredRole } from './body-gate.ts'

/* A route table shaped like a build's (flat, each route naming its parent), with the app's route ids. */
const route = (id: string, parentId: string | undefined, extra: { path?: string; index?: boolean } = {}) => ({
	id,
	parentId,
	...extra,
	module: {},
})
const routes = Object.fromEntries(
	[
		route('root', undefined, { path: '' }),
		route('routes/public/layout', 'root'),
		route('routes/public/home', 'routes/public/layout', { index: true }),
		route('routes/public/contact', 'routes/public/layout', { path: 'contact' }),
		route('routes/dashboard/layout', 'root', { path: 'dashboard' }),
		route('routes/dashboard/settings', 'routes/dashboard/layout', { path: 'settings' }),
		route('routes/admin/layout', 'routes/dashboard/layout', { path: 'admin' }),
		route('routes/admin/codes', 'routes/admin/layout', { path: 'codes' }),
		route('routes/admin/code-files', 'root', { path: 'dashboard/admin/codes/:campaignId/files' }),
		route('routes/dashboard/settings-avatar', 'root', { path: 'dashboard/settings/avatar/:id?' }),
		// An admin module mounted outside /dashboard: its module decides.
		route('routes/admin/elsewhere', 'root', { path: 'outils/import' }),
		route('routes/public/catch-all', 'root', { path: '*' }),
	].map((r) => [r.id, r]),
) as unknown as ServerBuild['routes']

describe('the role a body needs', () => {
	const required = createRequiredRole(routes)

	it('is an admin for the admin’s routes, a member for the member’s, nobody for the public site', () => {
		expect(required('/dashboard/admin/codes/abc/files')).toBe('admin')
		expect(required('/dashboard/admin/codes')).toBe('admin')
		expect(required('/outils/import')).toBe('admin')
		expect(required('/dashboard/settings/avatar')).toBe('member')
		expect(required('/dashboard/settings')).toBe('member')
		expect(required('/contact')).toBeNull()
		expect(required('/')).toBeNull()
		expect(required('/_root.data')).toBeNull()
	})

	it('sees through the ways of writing the same address that React Router matches alike', () => {
		expect(required('/dashboard/admin/codes/abc/files.data')).toBe('admin')
		expect(required('/DASHBOARD/Admin/codes/abc/files')).toBe('admin')
		expect(required('/dashboard/%61dmin/codes/abc/files')).toBe('admin')
		expect(required('/dashboard/admin/codes/abc/files/')).toBe('admin')
		expect(required('//dashboard//admin/codes/abc/files')).toBe('admin')
		expect(required('/outils/import.data')).toBe('admin')
		// Not decodable: nothing serves it, and no body is read for it either.
		expect(required('/dashboard/%E0%A4%A')).toBe('admin')
		expect(required('/%E0%A4%A')).toBe('admin')
	})
})
