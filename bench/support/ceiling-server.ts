/*
 * The ceiling of the public-pages bench: plain node:http answering each page with the very bytes
 * and headers our server sent for it, held in memory (one writeHead with the raw header list, one
 * end with the Buffer). Nothing a Node server does per request can cost less.
 * Usage: node bench/support/ceiling-server.ts <pages.json> <port>   (127.0.0.1 only)
 * pages.json: { "<path>": { "status": 200, "headers": ["name", "value", …], "body": "<file>" } }
 */
import fs from 'node:fs'
import http from 'node:http'

const [manifest, portArg] = process.argv.slice(2)
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
server.listen(Number(portArg), '127.0.0.1')

const stop = () => server.close(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
