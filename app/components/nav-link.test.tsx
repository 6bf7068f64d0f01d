import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider, NavLink as RouterNavLink } from 'react-router'
import { describe, expect, test } from 'vitest'
import { isCurrent, NavLink } from './nav-link.tsx'

const PATHS = [
	'/',
	'/dashboard',
	'/dashboard/',
	'/dashboard/settings',
	'/Dashboard/Admin',
	'/dashboard/admin/events/x',
	'/dashboardx',
	'/events',
	'//',
]
const TARGETS = ['/', '/dashboard', '/dashboard/admin', '/dashboard/settings/', '/events']

/** React Router's own NavLink, rendered at `path`: whether it marks `to` as current. */
async function routerSays(path: string, to: string, end: boolean): Promise<boolean> {
	const routes = [
		{ path: '*', Component: () => <RouterNavLink to={to} end={end} className={({ isActive }) => (isActive ? 'on' : 'off')} /> },
	]
	const handler = createStaticHandler(routes)
	const context = await handler.query(new Request(`http://site${path}`))
	if (context instanceof Response) throw new Error('unexpected response')
	const html = renderToString(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />)
	return html.includes('class="on"')
}

describe('NavLink', () => {
	test('marks the current section as React Router’s NavLink does, path by path', async () => {
		for (const path of PATHS)
			for (const to of TARGETS)
				for (const end of [false, true]) expect(isCurrent(path, to, end), `${path} ${to} end=${end}`).toBe(await routerSays(path, to, end))
	})

	test('renders a link with aria-current on the current page and the classes for its state', async () => {
		const routes = [
			{
				path: '*',
				Component: () => (
					<>
						<NavLink to="/dashboard" end className={({ isActive }) => (isActive ? 'actif' : 'inactif')}>
							Accueil
						</NavLink>
						<NavLink to="/dashboard/settings" className="lien">
							Paramètres
						</NavLink>
					</>
				),
			},
		]
		const handler = createStaticHandler(routes)
		const context = await handler.query(new Request('http://site/dashboard'))
		if (context instanceof Response) throw new Error('unexpected response')
		const html = renderToString(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />)
		expect(html).toContain('<a aria-current="page" class="actif" href="/dashboard" data-route-link="">Accueil</a>')
		expect(html).toContain('<a class="lien" href="/dashboard/settings" data-route-link="">Paramètres</a>')
	})
})
