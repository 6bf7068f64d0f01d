/*
 * A multipart/form-data body read as a stream, part after part, each part's content handed on in
 * pieces as it arrives: a 200 MB file goes to the storage without ever being whole in memory (what
 * `request.formData()` does). At most one piece of the socket plus the length of the boundary is
 * held at a time.
 */

export class MultipartError extends Error {
	constructor(message: string) {
		super(message)
		this.name = 'MultipartError'
	}
}

export interface MultipartPart {
	/** The field's name. */
	name: string
	/** The file's name as the browser sent it (null for a plain field; '' when no file was chosen). */
	filename: string | null
	/** The part's own Content-Type (the browser's guess for a file), '' when it sent none. */
	contentType: string
	/**
	 * The part's content, in pieces. Read it before asking for the next part (what is left of it is
	 * skipped then).
	 */
	body: AsyncIterable<Uint8Array>
}

/** The boundary of a multipart/form-data Content-Type, or null. */
export function boundaryOf(contentType: string | null): string | null {
	if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null
	const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType)
	return match?.[1] ?? match?.[2] ?? null
}

const CRLF = Buffer.from('\r\n')
const HEADERS_END = Buffer.from('\r\n\r\n')
/** A part's headers: a few hundred bytes from a browser. */
const MAX_HEADER_BYTES = 16 * 1024

function parameter(header: string, name: string): string | null {
	// name="…" (quotes escaped as the browsers do: %22) or name=token; `filename*` is not used by browsers for forms.
	const match = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${name}=([^;\\s]*)`, 'i').exec(header)
	if (!match) return null
	return (match[1] ?? match[2] ?? '').replace(/\\(.)/g, '$1')
}

/**
 * The parts of a multipart body, in order. Throws MultipartError when the body is not one (no
 * boundary, a part without its headers, an end that never comes); errors of the body stream itself
 * (the client gone, the server's body limit) are passed on as they are.
 */
export async function* multipartParts(body: ReadableStream<Uint8Array> | null, contentType: string | null): AsyncGenerator<MultipartPart> {
	const boundary = boundaryOf(contentType)
	if (!boundary || !body) throw new MultipartError('not a multipart body')
	// Every delimiter but the first follows a CRLF; a CRLF put in front makes the first one alike.
	const delimiter = Buffer.from(`\r\n--${boundary}`)
	const reader = body.getReader()
	let buffer: Buffer = Buffer.from(CRLF)
	let ended = false

	const more = async (): Promise<boolean> => {
		if (ended) return false
		const { done, value } = await reader.read()
		if (done) {
			ended = true
			return false
		}
		buffer = buffer.length === 0 ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : Buffer.concat([buffer, value])
		return true
	}

	try {
		// The preamble, up to the first delimiter (browsers send none).
		for (;;) {
			const at = buffer.indexOf(delimiter)
			if (at !== -1) {
				buffer = buffer.subarray(at + delimiter.length)
				break
			}
			buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length + 1))
			if (!(await more())) throw new MultipartError('no boundary in the body')
		}

		for (;;) {
			// After a delimiter: `--` ends the body, else a CRLF (after optional blanks) starts a part.
			while (buffer.length < 2) if (!(await more())) throw new MultipartError('the body ends inside a delimiter')
			if (buffer[0] === 0x2d && buffer[1] === 0x2d) return
			let headersAt: number
			for (;;) {
				headersAt = buffer.indexOf(HEADERS_END)
				if (headersAt !== -1) break
				if (buffer.length > MAX_HEADER_BYTES) throw new MultipartError('part headers too long')
				if (!(await more())) throw new MultipartError('the body ends inside part headers')
			}
			const lineEnd = buffer.indexOf(CRLF)
			if (buffer.subarray(0, lineEnd).toString('latin1').trim() !== '') throw new MultipartError('garbage after a delimiter')
			// UTF-8, as browsers write file names; Content-Disposition first, Content-Type if any.
			const headers = buffer
				.subarray(lineEnd + 2, headersAt)
				.toString('utf8')
				.split('\r\n')
			buffer = buffer.subarray(headersAt + HEADERS_END.length)
			const disposition = headers.find((line) => /^content-disposition\s*:/i.test(line)) ?? ''
			const name = parameter(disposition, 'name')
			if (name === null || !/:\s*form-data\b/i.test(disposition)) throw new MultipartError('a part without its form-data name')
			const typeLine = headers.find((line) => /^content-type\s*:/i.test(line))
			let finished = false

			/** The next piece of this part's content; null once the part is over. */
			const nextPiece = async (): Promise<Buffer | null> => {
				for (;;) {
					if (finished) return null
					const at = buffer.indexOf(delimiter)
					if (at !== -1) {
						const piece = buffer.subarray(0, at)
						buffer = buffer.subarray(at + delimiter.length)
						finished = true
						return piece
					}
					// Everything but what could be the start of a delimiter split between two pieces.
					const keep = delimiter.length - 1
					if (buffer.length > keep) {
						const piece = buffer.subarray(0, buffer.length - keep)
						buffer = Buffer.from(buffer.subarray(buffer.length - keep))
						return piece
					}
					if (!(await more())) throw new MultipartError('the body ends inside a part')
				}
			}

			yield {
				name,
				filename: parameter(disposition, 'filename'),
				contentType: typeLine ? typeLine.slice(typeLine.indexOf(':') + 1).trim() : '',
				body: {
					async *[Symbol.asyncIterator]() {
						for (let piece = await nextPiece(); piece !== null; piece = await nextPiece()) if (piece.length > 0) yield piece
					},
				},
			}
			// What the reader left of this part is skipped.
			while ((await nextPiece()) !== null);
		}
	} finally {
		await reader.cancel().catch(() => {})
	}
}
