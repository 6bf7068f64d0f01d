import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'

/*
 * A large multipart upload as a browser sends it (one `file` field), its bytes generated as they
 * are sent, over a raw connection so that what the server did with them can be measured: the
 * status it answered, how much the client managed to hand to the connection before that answer
 * (loopback's socket buffers hold a few MB the server never read), how much of the connection the
 * server had read by then (`ss`: received by its kernel, less what waits unread in its socket),
 * and how much the server process read meanwhile (`rchar` of /proc/<pid>/io).
 */

const BOUNDARY = '----envoi-de-test-7f3a9c'

export interface UploadOutcome {
	/** The status line's code, or 'closed' when the server hung up without a word. */
	status: number | 'closed'
	/** The answer's headers (lower-case names), when there was one. */
	headers: Record<string, string>
	/** The start of the answer's body (at most 4 kB). */
	body: string
	/** Bytes of the request (head included) handed to the connection before the answer or the close. */
	sent: number
	/**
	 * Bytes of this connection the server process had read when the answer came: what its kernel
	 * received on the connection less what still waits unread in its socket (`ss`); null when `ss`
	 * could not tell (the server had already closed the connection: then see `serverProcessRead`).
	 */
	serverRead: number | null
	/** Every byte the server process read meanwhile (`rchar`: files and other connections included). */
	serverProcessRead: number | null
}

/** What the server's side of this connection received, and what of it is still unread, from `ss`. */
function serverSideOf(serverPort: number, clientPort: number): { received: number; unread: number } | null {
	try {
		const line = execFileSync('ss', ['-tniH', 'state', 'all', `( sport = :${serverPort} and dport = :${clientPort} )`], {
			encoding: 'utf8',
			timeout: 5_000,
		})
		// `State Recv-Q Send-Q Local Peer` then, on the next line, the TCP details.
		const unread = Number(line.trim().split(/\s+/)[1])
		const received = Number(/bytes_received:(\d+)/.exec(line)?.[1] ?? 0)
		return Number.isFinite(unread) ? { received, unread } : null
	} catch {
		return null
	}
}

/** Bytes the process has read so far (sockets and files alike), or null off Linux. */
export function bytesReadBy(pid: number): number | null {
	try {
		return Number(/^rchar:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? Number.NaN)
	} catch {
		return null
	}
}

/** The resident memory of a process, in bytes. */
export function residentBytes(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024
}

/**
 * POSTs a multipart form whose `file` field is `fileBytes` long to `origin + path`, with a
 * declared Content-Length or chunked (no length declared), and stops sending at the first byte of
 * the answer or at the close. `serverPid`: the process whose reads are counted.
 */
export function postLargeUpload(options: {
	origin: string
	path: string
	fileBytes: number
	framing: 'declared' | 'chunked'
	cookie?: string
	serverPid?: number
	/** Resolve only once the whole body was sent and the answer read (a legitimate upload). */
	complete?: boolean
	timeoutMs?: number
}): Promise<UploadOutcome> {
	const url = new URL(options.path, options.origin)
	const opening = Buffer.from(
		`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="enregistrement.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
	)
	const closing = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
	const total = opening.length + options.fileBytes + closing.length
	const head = [
		`POST ${url.pathname}${url.search} HTTP/1.1`,
		`Host: ${url.host}`,
		`Origin: ${options.origin}`,
		'Sec-Fetch-Site: same-origin',
		'User-Agent: Mozilla/5.0 (test)',
		`Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
		options.framing === 'declared' ? `Content-Length: ${total}` : 'Transfer-Encoding: chunked',
		...(options.cookie ? [`Cookie: ${options.cookie}`] : []),
		'',
		'',
	].join('\r\n')
	const filler = Buffer.alloc(64 * 1024, 0x25)
	const readBefore = options.serverPid ? bytesReadBy(options.serverPid) : null

	return new Promise((resolve) => {
		const socket = net.connect(Number(url.port), url.hostname)
		let handed = 0
		let answer = Buffer.alloc(0)
		let settled = false
		let fileLeft = options.fileBytes
		let stage: 'opening' | 'file' | 'closing' | 'done' = 'opening'
		const timer = setTimeout(() => finish(), options.timeoutMs ?? 60_000)

		const frame = (chunk: Buffer) =>
			options.framing === 'declared' ? chunk : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
		const write = (chunk: Buffer) => {
			handed += chunk.length
			return socket.write(chunk)
		}
		const answered = () => answer.indexOf('\r\n\r\n') !== -1

		function parse(): Pick<UploadOutcome, 'status' | 'headers' | 'body'> {
			const end = answer.indexOf('\r\n\r\n')
			if (end === -1) return { status: 'closed', headers: {}, body: '' }
			const [statusLine, ...lines] = answer.subarray(0, end).toString('latin1').split('\r\n')
			const headers: Record<string, string> = {}
			for (const line of lines) {
				const at = line.indexOf(':')
				headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim()
			}
			return { status: Number(statusLine!.split(' ')[1]), headers, body: answer.subarray(end + 4, end + 4 + 4096).toString('utf8') }
		}

		function finish() {
			if (settled) return
			settled = true
			clearTimeout(timer)
			const sent = handed - socket.writableLength
			// Before our side goes: the server's side of the connection is still there to be asked.
			const side = socket.localPort ? serverSideOf(Number(url.port), socket.localPort) : null
			socket.destroy()
			// What the server read for this request: measured once it had time to finish with it.
			setTimeout(() => {
				const readAfter = options.serverPid ? bytesReadBy(options.serverPid) : null
				resolve({
					...parse(),
					sent,
					serverRead: side ? side.received - side.unread : null,
					serverProcessRead: readBefore !== null && readAfter !== null ? readAfter - readBefore : null,
				})
			}, 100)
		}

		function pump() {
			while (!settled && stage !== 'done') {
				if (!options.complete && answered()) return finish()
				let ok: boolean
				if (stage === 'opening') {
					ok = write(Buffer.from(head, 'latin1')) && write(frame(opening))
					stage = 'file'
				} else if (stage === 'file') {
					const piece = fileLeft >= filler.length ? filler : filler.subarray(0, fileLeft)
					fileLeft -= piece.length
					ok = write(frame(piece))
					if (fileLeft === 0) stage = 'closing'
				} else {
					ok = write(frame(closing))
					if (options.framing === 'chunked') ok = write(Buffer.from('0\r\n\r\n')) && ok
					stage = 'done'
				}
				if (!ok) {
					socket.once('drain', pump)
					return
				}
				// One piece per turn of the event loop, as a browser reads its socket while it uploads:
				// an answer that arrives meanwhile is read before the next piece is written.
				if (!options.complete) {
					setImmediate(pump)
					return
				}
			}
		}

		socket.on('connect', pump)
		socket.on('data', (data) => {
			answer = Buffer.concat([answer, data]).subarray(0, 64 * 1024)
			// A refusal: stop at once. A legitimate upload: wait for the whole answer.
			if (!options.complete && answered()) finish()
			else if (options.complete && stage === 'done' && answered()) setTimeout(finish, 50)
		})
		socket.on('error', () => finish())
		socket.on('close', () => finish())
	})
}
