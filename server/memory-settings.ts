/*
 * Imported by server/index.ts before anything heavy is loaded. On Linux, the server starts again in
 * the same process (execve: same PID, same output) with MALLOC_TRIM_THRESHOLD_=131072, V8's young
 * generation capped (--max-semi-space-size) and its old generation's growth fixed
 * (--heap-growing-percent), unless MALLOC_TRIM_THRESHOLD_ is already in its environment (whoever set
 * it has chosen for themselves).
 *
 * Why the trim threshold: glibc keeps memory that was freed, up to 32 MB per arena, for later use. V8
 * compiles the embedded database's WebAssembly on background threads, each with its own arena, and
 * what those compilations freed stayed in the process. With a fixed 128 kB threshold it goes back to
 * the system: measured, ~50 MB less at rest with PGlite and a smaller rise under load
 * (`git show 806858a:bench/RESULTS.md`, « memory at rest »).
 *
 * Why the young generation: under load, V8 grows each of its two semi-spaces up to 16 MB or more
 * (by default a share of the machine's memory), memory the process then keeps; a request's garbage
 * here dies young and small, so a cap of 8 MB holds it at a few more scavenges
 * (bench/RESULTS-start-and-memory.md).
 *
 * Why the old generation's growth (--heap-growing-percent): V8 sets the next limit of its old
 * generation as a multiple of what survived the last full collection, a multiple it picks from how
 * fast collections have been, up to 4. The last full collection before the first visitors comes
 * while the server starts (some 37 MB live, collections cheap): V8 then lets the heap reach ~3.4×
 * that under the first load, full of requests' garbage and of the array buffers it holds, before
 * it collects again. A fixed ×1.75 keeps that rise below the size of what is live, at the same CPU
 * per request as ×2 within what bench/compare.ts can tell; ×1.6 and lower cost CPU
 * (docs/decisions/0034-old-generation-growth.md).
 *
 * Either option given to Node (its options or NODE_OPTIONS, where Node allows it) is kept as given.
 * Elsewhere (macOS, musl, a Node without process.execve) the server runs as started.
 *
 * The second start also gets Node's compile cache from its first instruction (NODE_COMPILE_CACHE, the
 * folder server/index.ts would enable anyway, unless one is already chosen): its TypeScript files then
 * come out of the cache already stripped of their types, and Node never loads its type stripper (a
 * WebAssembly module of its own, ~0.17 s of CPU per start, measured in
 * `git show 07e18f1:bench/RESULTS-start-and-memory.md`, « Where the time to the first 200 goes »).
 * The first start cannot skip it: it is already running server/index.ts when it gets here.
 */
import os from 'node:os'
import path from 'node:path'

const V8_OPTIONS = {
	'--max-semi-space-size': 8,
	'--heap-growing-percent': 75,
}

if (process.platform === 'linux' && process.env.MALLOC_TRIM_THRESHOLD_ === undefined && typeof process.execve === 'function') {
	const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
	const added = Object.entries(V8_OPTIONS)
		.filter(([name]) => !given.some((arg) => arg === name || arg.startsWith(`${name}=`)))
		.map(([name, value]) => `${name}=${value}`)
	process.execve(process.execPath, [process.execPath, ...process.execArgv, ...added, ...process.argv.slice(1)], {
		...process.env,
		MALLOC_TRIM_THRESHOLD_: '131072',
		NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'node-compile-cache'),
	})
}
