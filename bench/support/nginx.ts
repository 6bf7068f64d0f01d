/*
 * nginx (Debian's, when installed) serving the pages of the public-pages bench: each path answers
 * the file holding the bytes our server sent (already brotli-compressed) with the same headers,
 * from a configuration of its own in a temporary folder, on a free loopback port, one process
 * (`master_process off`: the process that serves is the one whose CPU is read). nginx adds only
 * Date, Server and Content-Length itself; its own ETag, Last-Modified and ranges are turned off.
 */
import fs from 'node:fs'
import path from 'node:path'
import { freePort, start, waitForHttp } from '../processes.ts'
import { TMP, tempDir, type RunningSite } from './harness.ts'

export const NGINX = process.env.NGINX ?? '/usr/sbin/nginx'
export const nginxInstalled = () => fs.existsSync(NGINX)

/** Headers nginx sets itself from the file and the connection. */
const OWN = new Set(['content-length', 'content-type', 'date', 'connection', 'keep-alive', 'transfer-encoding'])

const quoted = (value: string) => {
	if (value.includes('$')) throw new Error(`nginx cannot send a header value with "$" as is: ${value}`)
	return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
}

export async function startNginx(pages: { path: string; headers: string[]; bodyFile: string }[]): Promise<RunningSite> {
	const dir = tempDir('band-bench-nginx-')
	const port = await freePort()
	const locations = pages.map((page) => {
		const file = path.join(dir, `page-${pages.indexOf(page)}`)
		fs.copyFileSync(page.bodyFile, file)
		const lines: string[] = []
		let type = 'text/html'
		for (let k = 0; k < page.headers.length; k += 2) {
			const name = page.headers[k]!
			const value = page.headers[k + 1]!
			if (name.toLowerCase() === 'content-type') type = value
			else if (!OWN.has(name.toLowerCase())) lines.push(`add_header ${name} ${quoted(value)} always;`)
		}
		return `location = ${page.path} {\n\t\t\tdefault_type ${quoted(type)};\n\t\t\ttry_files /${path.basename(file)} =404;\n\t\t\t${lines.join('\n\t\t\t')}\n\t\t}`
	})
	const config = `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
	access_log off;
	server_tokens off;
	etag off;
	if_modified_since off;
	max_ranges 0;
	sendfile on;
	tcp_nopush on;
	keepalive_timeout 65;
	keepalive_requests 1000000;
	client_body_temp_path ${dir}/body;
	proxy_temp_path ${dir}/proxy;
	fastcgi_temp_path ${dir}/fastcgi;
	uwsgi_temp_path ${dir}/uwsgi;
	scgi_temp_path ${dir}/scgi;
	types {}
	server {
		listen 127.0.0.1:${port};
		root ${dir};
		${locations.join('\n\t\t')}
	}
}
`
	const file = path.join(dir, 'nginx.conf')
	fs.writeFileSync(file, config)
	const spawnedAt = performance.now()
	const child = start(NGINX, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', file], { logFile: path.join(TMP, 'nginx.log') })
	const origin = `http://127.0.0.1:${port}`
	await waitForHttp(`${origin}${pages[0]!.path}`, child)
	return { origin, child, pid: child.pid, startMs: performance.now() - spawnedAt }
}
