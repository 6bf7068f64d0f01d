/*
 * The embedded database's engine, made ready while the server loads the app's build (server/main.ts):
 * PGlite's WebAssembly (9 MB) read and compiled, and its file bundle (6 MB: Postgres's share/ folder)
 * read, both from the paths the package exports. Without them PGlite does the same work itself, but
 * only once the build is loaded and the database asked for: here the reads run on libuv's threads and
 * the compilation on V8's, in the time the main thread spends evaluating the build.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

export interface PgliteAssets {
	pgliteWasmModule: WebAssembly.Module
	fsBundle: Blob
}

export function preparePgliteAssets(): Promise<PgliteAssets> {
	const require = createRequire(import.meta.url)
	const read = (file: string) => readFile(require.resolve(`@electric-sql/pglite/${file}`))
	const prepared = Promise.all([read('pglite.wasm').then((bytes) => WebAssembly.compile(bytes)), read('pglite.data')]).then(
		([pgliteWasmModule, data]) => ({ pgliteWasmModule, fsBundle: new Blob([data]) }),
	)
	// Whoever awaits it sees a failure (and PGlite then loads its files itself); unawaited, it is no crash.
	prepared.catch(() => {})
	return prepared
}
