/*
 * The server: one Node process for pages, API, auth, static files and the background jobs.
 * Run with `npm start` (build + serve), `npm run serve` (an existing build) or `npm run dev`
 * (`--dev`: the same server on Vite's development build, with hot reload).
 *
 * This file only sets the process up, in order: the Node version check, the memory settings (which
 * may start the process again, before anything heavy is loaded), .env and NODE_ENV (read by React
 * and React Router when they load); then the server itself (server/main.ts).
 */
import module from 'node:module'
import '../scripts/check-node.mjs'
import './memory-settings.ts'
import './mode.ts'

// V8's compiled code of the server's modules (its own, the build's, the dependencies') is kept on
// disk (Node's compile cache, in the system's temporary folder unless NODE_COMPILE_CACHE says where)
// and reused by the next start, which then skips compiling them again.
module.enableCompileCache?.()

await import('./main.ts')
