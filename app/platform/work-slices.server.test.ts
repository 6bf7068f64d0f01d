import { describe, expect, it } from 'vitest'
import { nextSlice, progressSteps, type ProgressStep } from './work-slices.server.ts'

describe('progress in steps', () => {
	it('announces every 5 % of the work, not every row, and the last value always', async () => {
		const seen: ProgressStep[] = []
		const progress = progressSteps(100_000, (step) => seen.push(step), { now: () => 0 })
		for (let done = 0; done <= 100_000; done += 1_000) await progress.advance(done)
		await progress.finish(100_000)
		const values = seen.map((step) => step.done)
		expect(values.slice(0, 4)).toEqual([0, 5_000, 10_000, 15_000])
		// 0, then each 5,000 up to 100,000, and the final announcement.
		expect(values).toHaveLength(22)
		expect(values.at(-1)).toBe(100_000)
		expect(seen.every((step) => step.total === 100_000)).toBe(true)
	})

	it('announces after 2 s even when the work moves less than 5 %', async () => {
		let clock = 0
		const seen: number[] = []
		const progress = progressSteps(1_000_000, (step) => seen.push(step.done), { now: () => clock })
		await progress.advance(0)
		clock = 1_999
		await progress.advance(10)
		clock = 2_000
		await progress.advance(20)
		await progress.advance(20)
		clock = 4_100
		await progress.advance(30)
		expect(seen).toEqual([0, 20, 30])
	})

	it('goes on when an announcement fails', async () => {
		const progress = progressSteps(10, () => Promise.reject(new Error('lost')), { now: () => 0 })
		await expect(progress.advance(5)).resolves.toBeUndefined()
		await expect(progress.finish(10)).resolves.toBeUndefined()
	})

	it('gives waiting timers and I/O a turn between slices', async () => {
		let ran = false
		setImmediate(() => (ran = true))
		await Promise.resolve()
		expect(ran).toBe(false)
		await nextSlice()
		expect(ran).toBe(true)
	})
})
