/*
 * The baseline of the throughput bench: one HTML file served by plain node:http, streamed from
 * disk on every request as a static file server does. No framework, no rendering.
 * Usage: node bench/static-server.ts <file> <port>   (listens on 127.0.0.1 only)
 */
import fs from 'node:fs'
import http from 'node:http'

const [file, portArg] = process.argv.slice(2)
if (!file || !portArg) {
	console.error('usage: node bench/static-server.ts <file> <port>')
	process.exit(2)
}
const size = fs.statSync(file).size

const server = http.createServer((req, res) => {
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		res.writeHead(405)
		res.end()
		return
	}
	// An empty module for a page that asks for one (bench/first-paint.ts's control with a script).
	if (req.url?.endsWith('.js')) {
		res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': 10 })
		res.end(req.method === 'HEAD' ? undefined : 'export {}\n')
		return
	}
	res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': size })
	if (req.method === 'HEAD') {
		res.end()
		return
	}
	fs.createReadStream(file).pipe(res)
})
server.keepAliveTimeout = 65_000
server.listen(Number(portArg), '127.0.0.1')

const stop = () => server.close(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
