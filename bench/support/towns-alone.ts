/*
 * The town list alone, in a process of its own (bench/towns.ts runs it): the server's own module
 * (app/features/towns/towns.server.ts), nothing else loaded. Run with --expose-gc:
 *
 *   node --expose-gc bench/support/towns-alone.ts <list|control> <prefixes.json>
 *
 * Samples the resident set after forced garbage collection (5 samples, median), then either asks
 * the module for every prefix in the file, then the ways a form names a town (« list »: the list is
 * read on the first call), or as many one-letter queries (« control »: answered before the list is
 * read), then samples again. Prints one JSON line: before, after (kB) and what V8 holds.
 *
 * Why a process of its own: two identical servers given the same requests differ by tens of MB of
 * resident set (the allocator's arenas, V8's heap growth), which hides a list of 4 MB. Here only the
 * list's own work runs between the two samples, so the difference is the list's.
 */
import fs from 'node:fs'
import { resolveTown, suggestTowns, townById } from '../../app/features/towns/towns.server.ts'
import { residentKb } from './memory-probe.ts'

const [mode, prefixesFile] = process.argv.slice(2)
const collect = (globalThis as { gc?: () => void }).gc
if (!collect || (mode !== 'list' && mode !== 'control') || !prefixesFile) {
	console.error('usage: node --expose-gc bench/support/towns-alone.ts <list|control> <prefixes.json>')
	process.exit(2)
}
const prefixes = JSON.parse(fs.readFileSync(prefixesFile, 'utf8')) as string[]

const settle = () => new Promise((resolve) => setImmediate(resolve))

async function sample() {
	const samples: { rss: number; anon: number; heapUsed: number; arrayBuffers: number }[] = []
	for (let i = 0; i < 5; i++) {
		collect!()
		collect!()
		await settle()
		collect!()
		const { rss, anon } = residentKb()
		const usage = process.memoryUsage()
		samples.push({
			rss,
			anon,
			heapUsed: Math.round(usage.heapUsed / 1024),
			arrayBuffers: Math.round(usage.arrayBuffers / 1024),
		})
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	const median = (key: keyof (typeof samples)[number]) => samples.map((s) => s[key]).sort((a, b) => a - b)[2]!
	return { rss: median('rss'), anon: median('anon'), heapUsed: median('heapUsed'), arrayBuffers: median('arrayBuffers') }
}

// What both modes do before the first sample: the module's code is loaded and has run once, and
// what every page of the server does already (French numbers and dates, Unicode folding: Node's ICU
// data, mapped from its own binary) has been done, so that only the list's own work is measured.
suggestTowns('x')
'Évry Œuvre'.normalize('NFD')
new Intl.NumberFormat('fr-FR').format(12_345)
new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeZone: 'Europe/Paris' }).format(new Date())
const before = await sample()
let answers = 0
for (const q of prefixes) answers += suggestTowns(mode === 'list' ? q : q[0]!).length
if (mode === 'list') {
	// The other ways the site reads the list: a form's text, a stored id.
	for (const text of ['Lyon', 'Saint-Denis', 'Brest', 'Paris', 'Lyonn']) resolveTown(text)
	townById(2_996_944)
}
const after = await sample()
console.log(JSON.stringify({ mode, answers, before, after }))
