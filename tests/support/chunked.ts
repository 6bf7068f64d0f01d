import http from 'node:http'

/**
 * POSTs `totalBytes` of form-like filler to `url` as a chunked body (no Content-Length), 64 kB at a
 * time, respecting back-pressure, and stops sending as soon as the server answers or closes.
 * Resolves with the status (or `closed` when the server hung up without answering) and how many
 * bytes were sent.
 */
export function postChunked(
	url: string,
	totalBytes: number,
	headers: Record<string, string> = {},
): Promise<{ status: number | 'closed'; sent: number; body: string }> {
	const chunk = Buffer.alloc(64 * 1024, 'a')
	return new Promise((resolve) => {
		let sent = 0
		let settled = false
		const done = (status: number | 'closed', body = '') => {
			if (settled) return
			settled = true
			request.destroy()
			resolve({ status, sent, body })
		}
		const request = http.request(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				'transfer-encoding': 'chunked',
				origin: new URL(url).origin,
				...headers,
			},
		})
		// Once the status line is in, a connection closed by the server still counts as that answer.
		let status: number | 'closed' = 'closed'
		let body = ''
		request.on('response', (response) => {
			status = response.statusCode ?? 0
			response.setEncoding('utf8')
			response.on('data', (part: string) => (body += part))
			response.on('end', () => done(status, body))
			response.on('error', () => done(status, body))
			response.on('close', () => done(status, body))
		})
		request.on('error', () => done(status, body))
		request.on('close', () => setImmediate(() => done(status, body)))
		request.write('email=a%40exemple.fr&password=')
		const pump = () => {
			while (!settled && sent < totalBytes) {
				sent += chunk.byteLength
				if (!request.write(chunk)) {
					request.once('drain', pump)
					return
				}
			}
			if (!settled && sent >= totalBytes) request.end()
		}
		pump()
	})
}
