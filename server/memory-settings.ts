/*
 * Imported by server/index.ts before anything heavy is loaded. On Linux, the server starts again in
 * the same process (execve: same PID, same output) with MALLOC_TRIM_THRESHOLD_=131072, unless that
 * variable is already in its environment (whoever set it has chosen for themselves).
 *
 * Why: glibc keeps memory that was freed, up to 32 MB per arena, for later use. V8 compiles the
 * embedded database's WebAssembly on background threads, each with its own arena, and what those
 * compilations freed stayed in the process. With a fixed 128 kB threshold it goes back to the system:
 * measured, ~50 MB less at rest with PGlite and a smaller rise under load (`git show 806858a:bench/RESULTS.md`,
 * « memory at rest »). Elsewhere (macOS, musl, a Node without process.execve) the server runs as started.
 */
if (process.platform === 'linux' && process.env.MALLOC_TRIM_THRESHOLD_ === undefined && typeof process.execve === 'function') {
	process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
		...process.env,
		MALLOC_TRIM_THRESHOLD_: '131072',
	})
}
