import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { createRouteLookup } from './route-lookup.ts'

/* A route table shaped like a build's: flat, each route naming its parent. */
const route = (id: string, parentId: string | undefined, extra: { path?: string; index?: boolean } = {}) => ({
	id,
	parentId,
	...extra,
	module: {},
})
const routes = Object.fromEntries(
	[
		route('root', undefined, { path: '' }),
		route('public-layout', 'root'),
		route('home', 'public-layout', { index: true }),
		route('events', 'public-layout', { path: 'events' }),
		route('event', 'public-layout', { path: 'events/:eventId' }),
		route('media', 'root', { path: 'media/*' }),
		route('catch-all', 'root', { path: '*' }),
	].map((r) => [r.id, r]),
) as unknown as ServerBuild['routes']

describe('createRouteLookup', () => {
	it('names the deepest route React Router would match', () => {
		const lookup = createRouteLookup(routes)
		expect(lookup('/')).toBe('home')
		expect(lookup('/events')).toBe('events')
		expect(lookup('/events/abc123')).toBe('event')
		expect(lookup('/media/img/x/800.avif')).toBe('media')
		expect(lookup('/nowhere')).toBe('catch-all')
	})

	it('stays right when it remembers a path, and once its memory is full and it forgets the oldest', () => {
		const lookup = createRouteLookup(routes, 2)
		expect(lookup('/events')).toBe('events')
		expect(lookup('/events')).toBe('events')
		expect(lookup('/')).toBe('home')
		// Full: this new path pushes out the least recently used one.
		expect(lookup('/events/z')).toBe('event')
		expect(lookup('/events')).toBe('events')
		expect(lookup('/')).toBe('home')
		expect(lookup('/nowhere')).toBe('catch-all')
	})
})
