/*
 * Preloaded into a site process by a bench that measures its memory (bench/towns.ts):
 *
 *   node --expose-gc --import ./bench/support/memory-probe.ts server/index.ts
 *
 * On SIGUSR2 it collects garbage (full collections, twice, then once more after the event loop has
 * turned) and writes what the process holds to MEMORY_PROBE_FILE as one JSON line: a sequence
 * number, V8's heap, array buffers, and the kernel's resident set split into anonymous and
 * file-backed pages. Nothing else in the process changes; the site never loads this in production.
 */
import fs from 'node:fs'

const file = process.env.MEMORY_PROBE_FILE
const collect = (globalThis as { gc?: () => void }).gc
let sequence = 0

/** The kernel's resident set of this process, in kB: all of it, anonymous and file-backed (also used by towns-alone.ts). */
export function residentKb(): { rss: number; anon: number; file: number } {
	const status = fs.readFileSync('/proc/self/status', 'utf8')
	const read = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN)
	return { rss: read('VmRSS'), anon: read('RssAnon'), file: read('RssFile') }
}

if (file && collect) {
	process.on('SIGUSR2', () => {
		collect()
		collect()
		setImmediate(() => {
			collect()
			const usage = process.memoryUsage()
			const line = {
				sequence: ++sequence,
				...residentKb(),
				heapUsedKb: Math.round(usage.heapUsed / 1024),
				heapTotalKb: Math.round(usage.heapTotal / 1024),
				externalKb: Math.round(usage.external / 1024),
				arrayBuffersKb: Math.round(usage.arrayBuffers / 1024),
			}
			fs.writeFileSync(file, `${JSON.stringify(line)}\n`)
		})
	})
}
