/*
 * A minimal round-robin HTTP proxy for the benchmarks (bench/instances.ts), as a load balancer
 * in front of N instances: each request goes to the next upstream, over kept-alive connections,
 * with X-Forwarded-For set. Not for production (use Caddy, nginx or HAProxy there).
 *
 *   node bench/round-robin-proxy.ts <port> <upstream origin> [<upstream origin>…]
 */
import http from 'node:http'

const [portText, ...upstreams] = process.argv.slice(2)
if (!portText || upstreams.length === 0) {
	console.error('usage: round-robin-proxy.ts <port> <upstream>…')
	process.exit(2)
}
const targets = upstreams.map((origin) => new URL(origin))
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
let next = 0

const server = http.createServer((req, res) => {
	const target = targets[next++ % targets.length]!
	const forward = http.request(
		{
			agent,
			host: target.hostname,
			port: target.port,
			method: req.method,
			path: req.url,
			headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
		},
		(answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers)
			answer.pipe(res)
		},
	)
	forward.on('error', () => {
		if (!res.headersSent) res.writeHead(502)
		res.end()
	})
	req.pipe(forward)
})
server.keepAliveTimeout = 65_000
server.listen(Number(portText), '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
