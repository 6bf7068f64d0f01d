import { describe, expect, it } from 'vitest'
import { boundaryOf, MultipartError, multipartParts } from './multipart.server.ts'

/** A form encoded as a browser (undici's encoder) would send it, then cut into pieces of `size` bytes. */
async function encoded(form: FormData, size: number) {
	const response = new Response(form)
	const bytes = new Uint8Array(await response.arrayBuffer())
	const contentType = response.headers.get('content-type')!
	let at = 0
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (at >= bytes.length) return controller.close()
			controller.enqueue(bytes.slice(at, at + size))
			at += size
		},
	})
	return { body, contentType }
}

async function collect(body: ReadableStream<Uint8Array>, contentType: string) {
	const parts: { name: string; filename: string | null; contentType: string; bytes: Buffer }[] = []
	for await (const part of multipartParts(body, contentType)) {
		const pieces: Buffer[] = []
		for await (const piece of part.body) pieces.push(Buffer.from(piece))
		parts.push({ name: part.name, filename: part.filename, contentType: part.contentType, bytes: Buffer.concat(pieces) })
	}
	return parts
}

const bytesOfFile = (length: number) => {
	const bytes = new Uint8Array(length)
	// Contents that look like a boundary's start now and then (CR, LF, dashes).
	for (let i = 0; i < length; i++) bytes[i] = [13, 10, 45, 45, 65][i % 5]! ^ (i % 7 === 0 ? 1 : 0)
	return bytes
}

describe('multipartParts', () => {
	for (const size of [1, 7, 64, 65_536]) {
		it(`reads every field and file of a browser's form, cut into pieces of ${size} bytes`, async () => {
			const form = new FormData()
			form.set('intent', 'ajouter')
			form.set('file', new File([bytesOfFile(20_003)], 'Livret « été ».pdf', { type: 'application/pdf' }))
			form.set('vide', new File([], ''))
			const { body, contentType } = await encoded(form, size)
			const parts = await collect(body, contentType)
			expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
				['intent', null, ''],
				['file', 'Livret « été ».pdf', 'application/pdf'],
				// undici leaves out the empty file name a browser writes as filename=""
				['vide', null, 'application/octet-stream'],
			])
			expect(parts[0]!.bytes.toString()).toBe('ajouter')
			expect(parts[1]!.bytes.equals(Buffer.from(bytesOfFile(20_003)))).toBe(true)
			expect(parts[2]!.bytes.length).toBe(0)
		})
	}

	it('skips what the reader leaves of a part', async () => {
		const form = new FormData()
		form.set('file', new File([bytesOfFile(100_000)], 'a.bin'))
		form.set('after', 'encore là')
		const { body, contentType } = await encoded(form, 1000)
		const names: string[] = []
		for await (const part of multipartParts(body, contentType)) {
			names.push(part.name)
			if (part.name === 'after') for await (const piece of part.body) expect(Buffer.from(piece).toString()).toBe('encore là')
			else for await (const _piece of part.body) break
		}
		expect(names).toEqual(['file', 'after'])
	})

	it('refuses what is not a whole multipart body', async () => {
		const stream = (text: string) => new Response(text).body!
		const type = 'multipart/form-data; boundary=xyz'
		await expect(collect(stream('pas de délimiteur'), type)).rejects.toBeInstanceOf(MultipartError)
		await expect(collect(stream('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\ncoupé'), type)).rejects.toBeInstanceOf(
			MultipartError,
		)
		await expect(collect(stream('--xyz\r\nX-Autre: 1\r\n\r\nx\r\n--xyz--'), type)).rejects.toBeInstanceOf(MultipartError)
		await expect(collect(stream('--xyz--'), 'multipart/form-data')).rejects.toBeInstanceOf(MultipartError)
		expect(await collect(stream('--xyz--\r\n'), type)).toEqual([])
	})

	it('finds the boundary of a Content-Type, quoted or not', () => {
		expect(boundaryOf('multipart/form-data; boundary=----abc')).toBe('----abc')
		expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b"')).toBe('a b')
		expect(boundaryOf('application/x-www-form-urlencoded')).toBeNull()
		expect(boundaryOf(null)).toBeNull()
	})
})
