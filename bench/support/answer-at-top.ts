/*
 * Loaded into our server by bench/public-pages.ts (`node --import`): a request for /__floor<page>
 * is answered before the server's own handler runs, with the very status, headers and bytes our
 * server sent for <page> (the ceiling's pages.json, named by BENCH_FLOOR_PAGES), in one writeHead
 * and one end, as raw Node answers them. Every other request goes on to the server as usual,
 * after one check of its event name and path (the price « ours » pays for sharing the process).
 *
 * The same process as « ours », in the same state (the whole app loaded, the same pages rendered and
 * served), the same answer, and none of our per-request work: what is left between this and raw
 * Node is what a process that runs the whole app costs Node for the same answer; what is left
 * between ours and this is our own per-request work on a cache hit.
 */
import fs from 'node:fs'
import http from 'node:http'

const PREFIX = '/__floor'
const manifest = process.env.BENCH_FLOOR_PAGES
type Page = { status: number; headers: string[]; bytes: Buffer }
let pages: Map<string, Page> | undefined

/** The pages, read once the first such request comes (the bench writes the file after our server starts). */
function floorPages(): Map<string, Page> {
	if (pages) return pages
	const described = JSON.parse(fs.readFileSync(manifest!, 'utf8')) as Record<string, { status: number; headers: string[]; body: string }>
	pages = new Map(Object.entries(described).map(([path, page]) => [path, { ...page, bytes: fs.readFileSync(page.body) }]))
	return pages
}

if (manifest) {
	const emit = http.Server.prototype.emit
	http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
		if (event === 'request') {
			const [req, res] = args as [http.IncomingMessage, http.ServerResponse]
			const url = req.url
			if (url !== undefined && url.startsWith(PREFIX)) {
				const page = floorPages().get(url.slice(PREFIX.length))
				if (page) {
					res.writeHead(page.status, page.headers)
					res.end(page.bytes)
					return true
				}
			}
		}
		return Reflect.apply(emit, this, [event, ...args]) as boolean
	} as typeof emit
}
