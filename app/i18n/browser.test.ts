import { afterEach, describe, expect, it, vi } from 'vitest'
import { browserStrings, fetchUnit, loadStrings, pendingStrings, stringsUrl } from './browser.ts'

/* The browser's string files, read through a fetch of the test's own (a tiny in-memory server). */
function server(files: Record<string, unknown>, options: { failFirst?: number; status?: number } = {}) {
	const requests: string[] = []
	let failures = options.failFirst ?? 0
	let open = 0
	let mostOpen = 0
	const fetcher = (async (input: string | URL | Request) => {
		const url = String(input)
		requests.push(url)
		open++
		mostOpen = Math.max(mostOpen, open)
		await new Promise((resolve) => setTimeout(resolve, 5))
		open--
		if (failures > 0) {
			failures--
			if (options.status) return new Response('', { status: options.status })
			throw new TypeError('network down')
		}
		const unit = /\/([\w.]+)\.json$/.exec(url)?.[1]
		return unit && unit in files ? Response.json(files[unit]) : new Response('', { status: 404 })
	}) as typeof fetch
	return { fetcher, requests, mostOpen: () => mostOpen }
}

afterEach(() => {
	vi.useRealTimers()
})

describe('the browser’s strings', () => {
	it('reads a unit from its versioned file, and retries 5 times from 350 ms, doubling', async () => {
		vi.useFakeTimers()
		const { fetcher, requests } = server({ events: { title: 'Concerts' } }, { failFirst: 5 })
		const reading = fetchUnit('events', fetcher)
		await vi.runAllTimersAsync()
		expect(await reading).toEqual({ title: 'Concerts' })
		expect(requests).toHaveLength(6)
		expect(requests.every((url) => url === stringsUrl('events'))).toBe(true)
		expect(stringsUrl('events')).toMatch(/^\/assets\/strings\/[\w-]+\/events\.json$/)
	})

	it('gives up after the 5th retry', async () => {
		vi.useFakeTimers()
		const { fetcher, requests } = server({ events: {} }, { failFirst: 6, status: 503 })
		const reading = fetchUnit('events', fetcher)
		const failed = expect(reading).rejects.toThrow(/503/)
		// 350 + 700 + 1400 + 2800 + 5600 ms of waiting in all.
		await vi.advanceTimersByTimeAsync(10_849)
		expect(requests).toHaveLength(5)
		await vi.runAllTimersAsync()
		await failed
		expect(requests).toHaveLength(6)
	})

	it('merges namespaces and groups into one tree, reading each file once, at most 10 at a time', async () => {
		const files: Record<string, unknown> = {
			'newsletter.signup': { title: 'Inscription' },
			newsletter: { signup: { title: 'Inscription' }, status: { none: 'Aucun' } },
		}
		for (let i = 0; i < 14; i++) files[`many${i}`] = { word: `mot ${i}` }
		const { fetcher, requests, mostOpen } = server(files)

		await Promise.all([loadStrings(['newsletter.signup'], fetcher), loadStrings(['newsletter.signup'], fetcher)])
		expect(requests).toHaveLength(1)
		expect(browserStrings.newsletter).toEqual({ signup: { title: 'Inscription' } })
		// The whole namespace after one of its groups: the tree gains the rest.
		await loadStrings(['newsletter'], fetcher)
		expect(browserStrings.newsletter).toEqual({ signup: { title: 'Inscription' }, status: { none: 'Aucun' } })
		// A group of a namespace already there is not read again, and nothing waits for it.
		expect(pendingStrings(['newsletter.status', 'newsletter'])).toBeNull()
		expect(requests).toHaveLength(2)

		await loadStrings(
			Array.from({ length: 14 }, (_, i) => `many${i}`),
			fetcher,
		)
		expect(mostOpen()).toBe(10)
		expect(browserStrings.many13).toEqual({ word: 'mot 13' })
	})
})
