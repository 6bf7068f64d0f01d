/*
 * The floor of bench/dashboard.ts: the bare app's build served the way server/index.ts serves ours
 * (node:http, @remix-run/node-fetch-server, React Router's request handler), and nothing else.
 *
 *   node bench/bare/server.ts <build folder> <port>      (listens on 127.0.0.1 only)
 */
import http from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestListener } from '@remix-run/node-fetch-server'
import { createRequestHandler, type ServerBuild } from 'react-router'

const [buildDir, portArg] = process.argv.slice(2)
if (!buildDir || !portArg) {
	console.error('usage: node bench/bare/server.ts <build folder> <port>')
	process.exit(2)
}
const build = (await import(pathToFileURL(path.resolve(buildDir, 'server', 'index.js')).href)) as ServerBuild
const render = createRequestHandler(build, 'production')
http.createServer(createRequestListener((request) => render(request))).listen(Number(portArg), '127.0.0.1')
