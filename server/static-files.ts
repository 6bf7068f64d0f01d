import fs from 'node:fs'
import path from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { getT } from '../app/platform/i18n.server.ts'

const types: Record<string, string> = {
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.webp': 'image/webp',
	'.avif': 'image/avif',
	'.ico': 'image/x-icon',
	'.woff2': 'font/woff2',
	'.woff': 'font/woff',
	'.txt': 'text/plain; charset=utf-8',
	'.xml': 'application/xml; charset=utf-8',
	'.webmanifest': 'application/manifest+json',
	'.map': 'application/json; charset=utf-8',
}

const compressible = new Set(['.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml', '.map', '.webmanifest'])

interface Entry {
	file: string
	size: number
	etag: string
	type: string
	immutable: boolean
	br?: { file: string; size: number }
	gzip?: { file: string; size: number }
}

/**
 * Serves the built client folder from an index made at start (no file-system lookups per request,
 * no path from the request ever joined onto the disk). Hashed assets are immutable; the rest is
 * revalidated. Pre-compressed .br/.gz siblings are used when the client accepts them.
 */
export function createStaticHandler(root: string) {
	const index = new Map<string, Entry>()
	const walk = (dir: string) => {
		for (const dirent of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, dirent.name)
			if (dirent.isDirectory()) {
				walk(full)
				continue
			}
			if (dirent.name.endsWith('.br') || dirent.name.endsWith('.gz')) continue
			const ext = path.extname(dirent.name).toLowerCase()
			const stat = fs.statSync(full)
			const urlPath = '/' + path.relative(root, full).split(path.sep).join('/')
			const entry: Entry = {
				file: full,
				size: stat.size,
				etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
				type: types[ext] ?? 'application/octet-stream',
				immutable: urlPath.startsWith('/assets/'),
			}
			if (compressible.has(ext)) {
				for (const [kind, suffix] of [
					['br', '.br'],
					['gzip', '.gz'],
				] as const) {
					if (fs.existsSync(full + suffix)) entry[kind] = { file: full + suffix, size: fs.statSync(full + suffix).size }
				}
			}
			index.set(urlPath, entry)
		}
	}
	if (fs.existsSync(root)) walk(root)

	return function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
		if (req.method !== 'GET' && req.method !== 'HEAD') return false
		let decoded: string
		try {
			decoded = decodeURIComponent(pathname)
		} catch {
			return false
		}
		const entry = index.get(decoded)
		if (!entry) {
			if (decoded.startsWith('/assets/')) {
				res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
				res.end(getT()('http.fileNotFound'))
				return true
			}
			return false
		}
		res.setHeader('Cache-Control', entry.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300, must-revalidate')
		res.setHeader('Content-Type', entry.type)
		res.setHeader('ETag', entry.etag)
		if (entry.br || entry.gzip) res.setHeader('Vary', 'Accept-Encoding')
		if (req.headers['if-none-match'] === entry.etag) {
			res.writeHead(304)
			res.end()
			return true
		}
		const accept = String(req.headers['accept-encoding'] ?? '')
		let file = entry.file
		let size = entry.size
		if (entry.br && /\bbr\b/.test(accept)) {
			res.setHeader('Content-Encoding', 'br')
			;({ file, size } = entry.br)
		} else if (entry.gzip && /\bgzip\b/.test(accept)) {
			res.setHeader('Content-Encoding', 'gzip')
			;({ file, size } = entry.gzip)
		}
		res.setHeader('Content-Length', size)
		res.writeHead(200)
		if (req.method === 'HEAD') {
			res.end()
			return true
		}
		fs.createReadStream(file).pipe(res)
		return true
	}
}
