/*
 * The server: one Node process for pages, API, auth, static files and the background jobs.
 * Run with `npm start` (build + serve), `npm run serve` (an existing build) or `npm run dev`
 * (`--dev`: the same server on Vite's development build, with hot reload).
 *
 * This file only sets the process up, in order: the Node version check, the memory settings (which
 * may start the process again, before anything heavy is loaded), .env and NODE_ENV (read by React
 * and React Router when they load); then the server itself (server/main.ts).
 */
import '../scripts/check-node.mjs'
import './memory-settings.ts'
import './mode.ts'

await import('./main.ts')
