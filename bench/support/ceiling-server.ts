/*
 * The ceiling of the public-pages bench: plain node:http answering each page with the very bytes
 * and headers our server sent for it, held in memory (one writeHead with the raw header list, one
 * end with the Buffer). Nothing a Node server does per request can cost less.
 *
 * `--after-app-work`: the same server, in a process that has first done what an app's process does
 * besides (bodies read, responses from web streams, gzip and brotli streams, a file streamed, fetch):
 * Node's own http and stream code, shared by all of it, then runs less specialised by V8 than in a
 * process that never did anything else. The same answer then costs more (on a quiet machine, 1.17–1.40×
 * the plain ceiling's CPU, median 1.20×: `git show 0500398:bench/RESULTS-public-pages.md`): that part of a real server's cost is Node's.
 * Usage: node bench/support/ceiling-server.ts <pages.json> <port> [--after-app-work]   (127.0.0.1 only)
 * pages.json: { "<path>": { "status": 200, "headers": ["name", "value", …], "body": "<file>" } }
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { PassThrough, Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'

const [manifest, portArg, option] = process.argv.slice(2)
if (!manifest || !portArg) {
	console.error('usage: node bench/support/ceiling-server.ts <pages.json> <port>')
	process.exit(2)
}
const described = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, { status: number; headers: string[]; body: string }>
const pages = new Map(Object.entries(described).map(([path, page]) => [path, { ...page, bytes: fs.readFileSync(page.body) }]))

const server = http.createServer((req, res) => {
	const page = pages.get(req.url ?? '')
	if (!page) {
		res.writeHead(404)
		res.end()
		return
	}
	res.writeHead(page.status, page.headers)
	res.end(req.method === 'HEAD' ? undefined : page.bytes)
})
server.keepAliveTimeout = 65_000
if (option === '--after-app-work') await appLikeWork(manifest)
server.listen(Number(portArg), '127.0.0.1')

/**
 * What an app's process does besides answering from memory, 3,000 times over, on a server of its
 * own that is closed afterwards: a form's body read, a page from a web stream gzipped on its way out,
 * fetch, a Node stream pipeline, a file brotli-compressed, a web stream read.
 */
async function appLikeWork(file: string) {
	const other = http.createServer((req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (chunk: Buffer) => chunks.push(chunk))
		req.on('end', () => {
			res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' })
			Readable.fromWeb(new Response('<p>page</p>'.repeat(500)).body as never)
				.pipe(zlib.createGzip())
				.pipe(res)
		})
	})
	await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
	const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
	for (let i = 0; i < 3_000; i++) {
		await (await fetch(origin, { method: 'POST', body: new URLSearchParams({ email: 'a@b.fr', i: String(i) }) })).text()
		await pipeline(
			Readable.from(['a', 'b']),
			new Transform({ transform: (chunk, _, done) => done(null, chunk) }),
			new PassThrough().resume(),
		)
		await pipeline(fs.createReadStream(file), zlib.createBrotliCompress(), new PassThrough().resume())
		for await (const _ of new ReadableStream({ start: (controller) => (controller.enqueue('x'), controller.close()) }));
	}
	other.closeAllConnections()
	await new Promise((resolve) => other.close(resolve))
}

const stop = () => server.close(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
