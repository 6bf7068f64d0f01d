/*
 * Imported by server/index.ts before anything heavy is loaded. On Linux, the server starts again in
 * the same process (execve: same PID, same output) with MALLOC_TRIM_THRESHOLD_=131072 and V8's young
 * generation capped (--max-semi-space-size), unless MALLOC_TRIM_THRESHOLD_ is already in its
 * environment (whoever set it has chosen for themselves).
 *
 * Why the trim threshold: glibc keeps memory that was freed, up to 32 MB per arena, for later use. V8
 * compiles the embedded database's WebAssembly on background threads, each with its own arena, and
 * what those compilations freed stayed in the process. With a fixed 128 kB threshold it goes back to
 * the system: measured, ~50 MB less at rest with PGlite and a smaller rise under load
 * (`git show 806858a:bench/RESULTS.md`, « memory at rest »).
 *
 * Why the young generation: under load, V8 grows each of its two semi-spaces up to 16 MB or more
 * (by default a share of the machine's memory), memory the process then keeps; a request's garbage
 * here dies young and small, so SEMI_SPACE_MB holds it at a few more scavenges
 * (bench/RESULTS-start-and-memory.md). A --max-semi-space-size given to Node (its options or
 * NODE_OPTIONS) is kept as given. Elsewhere (macOS, musl, a Node without process.execve) the server
 * runs as started.
 *
 * The second start also gets Node's compile cache from its first instruction (NODE_COMPILE_CACHE, the
 * folder server/index.ts would enable anyway, unless one is already chosen): its TypeScript files then
 * come out of the cache already stripped of their types, and Node never loads its type stripper (a
 * WebAssembly module of its own, ~0.17 s of CPU per start, measured in bench/RESULTS-start-and-memory.md).
 * The first start cannot skip it: it is already running server/index.ts when it gets here.
 */
import os from 'node:os'
import path from 'node:path'

const SEMI_SPACE_MB = 8

if (process.platform === 'linux' && process.env.MALLOC_TRIM_THRESHOLD_ === undefined && typeof process.execve === 'function') {
	const chosen = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) =>
		arg.startsWith('--max-semi-space-size'),
	)
	process.execve(
		process.execPath,
		[process.execPath, ...process.execArgv, ...(chosen ? [] : [`--max-semi-space-size=${SEMI_SPACE_MB}`]), ...process.argv.slice(1)],
		{
			...process.env,
			MALLOC_TRIM_THRESHOLD_: '131072',
			NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'node-compile-cache'),
		},
	)
}
