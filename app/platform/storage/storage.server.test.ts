import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../tests/support/database.ts'
import { startTestS3, type TestS3 } from '../../../tests/support/s3.ts'
import { createStorage } from './create-storage.server.ts'
import { createLocalStorage, isLocalStorage, type LocalStorage } from './local-storage.server.ts'
import { createS3Storage } from './s3-storage.server.ts'
import { parseRange, storedFileResponse } from './serve.server.ts'
import { contentDisposition, isStorageKey, type Storage } from './storage.server.ts'

/*
 * The two stores behind one interface, each on the real thing: a temporary folder, and an
 * in-process s3rver on the loopback (random port, temporary folder), which checks signatures.
 */
const SECRET = 'un secret de test assez long pour signer des liens'
const SITE = 'http://localhost:3000'

let temp: { dir: string; dispose(): void }
let s3: TestS3
let local: LocalStorage
let bucket: Storage

beforeAll(async () => {
	temp = makeTempDir()
	s3 = await startTestS3()
	local = await createLocalStorage({ root: path.join(temp.dir, 'files'), secret: SECRET, siteUrl: SITE })
	bucket = createS3Storage({
		endpoint: s3.endpoint,
		bucket: s3.bucket,
		region: s3.region,
		accessKeyId: s3.accessKeyId,
		secretAccessKey: s3.secretAccessKey,
	})
})
afterAll(async () => {
	await s3?.close()
	temp?.dispose()
})

const bytes = (text: string) => new TextEncoder().encode(text)
const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text()
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

describe.each([
	['local folder', () => local],
	['S3 (s3rver)', () => bucket],
])('storage: %s', (_name, store) => {
	it('puts a file and gets it back, whole, with its size, type and ETag', async () => {
		const info = await store().put('tests/hello.txt', bytes('Bonjour, le monde'), { contentType: 'text/plain; charset=utf-8' })
		expect(info.size).toBe(17)
		const stat = await store().stat('tests/hello.txt')
		expect(stat).toMatchObject({ size: 17, contentType: 'text/plain; charset=utf-8' })
		expect(stat!.etag).toMatch(/^"[^"]+"$/)
		const object = await store().get('tests/hello.txt')
		expect(object).not.toBeNull()
		expect(object!.size).toBe(17)
		expect(await text(object!.body)).toBe('Bonjour, le monde')
		expect(Buffer.from((await store().read('tests/hello.txt'))!).toString()).toBe('Bonjour, le monde')
	})

	it('writes a file that arrives in pieces (an upload), small or over several parts, and keeps nothing of a failed one', async () => {
		const piece = (i: number) => new Uint8Array(64 * 1024).fill(i % 251)
		async function* pieces(count: number, failAt = -1) {
			for (let i = 0; i < count; i++) {
				if (i === failAt) throw new Error('envoi interrompu')
				yield piece(i)
			}
		}
		// 17 MB: three parts of an S3 multipart upload.
		const info = await store().putStream('tests/streamed.bin', pieces(272), { contentType: 'application/pdf' })
		expect(info.size).toBe(272 * 64 * 1024)
		const back = Buffer.from((await store().read('tests/streamed.bin'))!)
		expect(back.length).toBe(272 * 64 * 1024)
		for (const i of [0, 1, 127, 128, 271]) expect(back[i * 64 * 1024 + 5]).toBe(i % 251)
		expect((await store().putStream('tests/small.bin', pieces(2), { contentType: 'application/pdf' })).size).toBe(128 * 1024)
		expect((await store().stat('tests/small.bin'))?.size).toBe(128 * 1024)
		await expect(store().putStream('tests/failed.bin', pieces(200, 150), { contentType: 'application/pdf' })).rejects.toThrow(
			'envoi interrompu',
		)
		expect(await store().stat('tests/failed.bin')).toBeNull()
	}, 60_000)

	it('replaces a file in one step', async () => {
		await store().put('tests/replaced.txt', bytes('première version'), { contentType: 'text/plain' })
		await store().put('tests/replaced.txt', bytes('seconde'), { contentType: 'text/plain' })
		expect(await text((await store().get('tests/replaced.txt'))!.body)).toBe('seconde')
	})

	it('gets a byte range, and knows the whole size', async () => {
		await store().put('tests/alphabet.txt', bytes(ALPHABET), { contentType: 'text/plain' })
		const part = await store().get('tests/alphabet.txt', { range: { start: 10, end: 19 } })
		expect(part!.size).toBe(36)
		expect(part!.range).toEqual({ start: 10, end: 19 })
		expect(await text(part!.body)).toBe('klmnopqrst')
		const last = await store().get('tests/alphabet.txt', { range: { start: 35, end: 35 } })
		expect(await text(last!.body)).toBe('9')
	})

	it('answers null for a missing file, and deletes (twice without complaint)', async () => {
		expect(await store().get('tests/absent.txt')).toBeNull()
		expect(await store().stat('tests/absent.txt')).toBeNull()
		expect(await store().read('tests/absent.txt')).toBeNull()
		await store().put('tests/doomed.txt', bytes('x'), { contentType: 'text/plain' })
		await store().delete('tests/doomed.txt')
		expect(await store().stat('tests/doomed.txt')).toBeNull()
		await expect(store().delete('tests/doomed.txt')).resolves.toBeUndefined()
	})

	it('refuses every key it did not make itself, before touching anything', async () => {
		for (const key of [
			'../escape.txt',
			'a/../../b.txt',
			'/etc/passwd',
			'tests//double',
			'.tmp/x',
			'Tests/Upper.txt',
			'a\\b',
			'%2e%2e/x',
			'a/./b',
			'',
		]) {
			await expect(store().put(key, bytes('x'), { contentType: 'text/plain' }), key).rejects.toThrow(/invalid storage key/)
			await expect(store().get(key), key).rejects.toThrow(/invalid storage key/)
			await expect(store().delete(key), key).rejects.toThrow(/invalid storage key/)
			await expect(store().signedUrl(key), key).rejects.toThrow(/invalid storage key/)
		}
	})
})

describe('storage: local folder specifics', () => {
	it('keeps files under DATA_DIR/files, written through a temporary file that does not stay', async () => {
		await local.put('img/abc/480.webp', bytes('webp'), { contentType: 'image/webp' })
		expect(fs.readFileSync(path.join(temp.dir, 'files', 'img', 'abc', '480.webp'), 'utf8')).toBe('webp')
		expect(fs.readdirSync(path.join(temp.dir, 'files', '.tmp'))).toEqual([])
		expect((await local.stat('img/abc/480.webp'))!.contentType).toBe('image/webp')
	})

	it('signs links that expire, and refuses any change to them', async () => {
		await local.put('exports/data.json', bytes('{}'), { contentType: 'application/json' })
		const url = new URL(await local.signedUrl('exports/data.json', { expiresInSeconds: 60, downloadName: 'données.json' }))
		expect(url.origin + url.pathname).toBe(`${SITE}/files/exports/data.json`)
		const params = url.searchParams
		expect(local.verifySignature('exports/data.json', params)).toBe('ok')
		// Past its time.
		expect(local.verifySignature('exports/data.json', params, new Date(Date.now() + 61_000))).toBe('expired')
		// Another file, a later expiry, another download name, a changed signature: all refused.
		expect(local.verifySignature('exports/other.json', params)).toBe('invalid')
		const later = new URLSearchParams(params)
		later.set('expires', String(Number(params.get('expires')) + 3600))
		expect(local.verifySignature('exports/data.json', later)).toBe('invalid')
		const renamed = new URLSearchParams(params)
		renamed.set('name', 'autre.json')
		expect(local.verifySignature('exports/data.json', renamed)).toBe('invalid')
		const forged = new URLSearchParams(params)
		const sig = forged.get('sig')!
		forged.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1))
		expect(local.verifySignature('exports/data.json', forged)).toBe('invalid')
		expect(local.verifySignature('exports/data.json', new URLSearchParams({ expires: 'demain', sig }))).toBe('invalid')
	})

	it('does not accept a signature made with another secret', async () => {
		const other = await createLocalStorage({ root: path.join(temp.dir, 'files'), secret: `${SECRET}!`, siteUrl: SITE })
		const url = new URL(await other.signedUrl('exports/data.json'))
		expect(local.verifySignature('exports/data.json', url.searchParams)).toBe('invalid')
	})
})

describe('storage: S3 specifics', () => {
	it('signs a presigned GET that s3rver serves, with the download name', async () => {
		await bucket.put('exports/report.txt', bytes('rapport'), { contentType: 'text/plain' })
		const url = await bucket.signedUrl('exports/report.txt', { expiresInSeconds: 60, downloadName: 'rapport été.txt' })
		expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/exports/report.txt?`)).toBe(true)
		const response = await fetch(url)
		expect(response.status).toBe(200)
		expect(await response.text()).toBe('rapport')
		expect(response.headers.get('content-disposition')).toBe(contentDisposition('rapport été.txt'))
	})

	it('refuses a tampered presigned URL', async () => {
		await bucket.put('exports/other.txt', bytes('secret'), { contentType: 'text/plain' })
		const url = new URL(await bucket.signedUrl('exports/report.txt', { expiresInSeconds: 60 }))
		expect((await fetch(url)).status).toBe(200)
		const otherKey = new URL(url)
		otherKey.pathname = `/${s3.bucket}/exports/other.txt`
		expect((await fetch(otherKey)).status).toBe(403)
		const longer = new URL(url)
		longer.searchParams.set('X-Amz-Expires', '3600')
		expect((await fetch(longer)).status).toBe(403)
		const forged = new URL(url)
		const sig = forged.searchParams.get('X-Amz-Signature')!
		forged.searchParams.set('X-Amz-Signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1))
		expect((await fetch(forged)).status).toBe(403)
	})

	it('refuses a presigned URL past its time', async () => {
		const url = await bucket.signedUrl('exports/report.txt', { expiresInSeconds: 1 })
		await new Promise((resolve) => setTimeout(resolve, 2_100))
		expect((await fetch(url)).status).toBe(403)
	})
})

describe('storage: chosen by the environment', () => {
	const base = { DATA_DIR: '', SITE_URL: SITE, S3_REGION: 'us-east-1' }
	it('is the local folder without S3_BUCKET, and S3 with it', async () => {
		const chosenLocal = await createStorage({ ...base, DATA_DIR: temp.dir }, SECRET)
		expect(isLocalStorage(chosenLocal)).toBe(true)
		const chosenS3 = await createStorage({ ...base, DATA_DIR: temp.dir, ...s3EnvOf() }, SECRET)
		expect(chosenS3.kind).toBe('s3')
		await chosenS3.put('tests/env.txt', bytes('ok'), { contentType: 'text/plain' })
		expect(await text((await bucket.get('tests/env.txt'))!.body)).toBe('ok')
	})

	it('stops on a half-done S3 configuration', async () => {
		await expect(createStorage({ ...base, DATA_DIR: temp.dir, S3_ENDPOINT: s3.endpoint }, SECRET)).rejects.toThrow(/S3_BUCKET/)
		await expect(createStorage({ ...base, DATA_DIR: temp.dir, S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'x' }, SECRET)).rejects.toThrow(
			/S3_SECRET_ACCESS_KEY/,
		)
	})

	function s3EnvOf() {
		return {
			S3_ENDPOINT: s3.endpoint,
			S3_BUCKET: s3.bucket,
			S3_ACCESS_KEY_ID: s3.accessKeyId,
			S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
		}
	}
})

describe('storage keys', () => {
	it('are lower-case segments of letters and digits, nothing else', () => {
		expect(isStorageKey('img/0b7c1f3e-1f1e-4f7e-9a3b-2c1d0e9f8a7b/960.avif')).toBe(true)
		expect(isStorageKey('originals/abc.jpg')).toBe(true)
		for (const key of ['..', '../a', 'a/..', 'a/b/', '/a', 'a b', 'a%2fb', 'é', 'a\u0000b', 'A.jpg', 'x'.repeat(201)]) {
			expect(isStorageKey(key), key).toBe(false)
		}
	})
})

describe('serving a stored file', () => {
	it('reads Range headers as RFC 9110 says', () => {
		expect(parseRange(null, 100)).toBe('whole')
		expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 })
		expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 })
		expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 })
		expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 })
		expect(parseRange('bytes=50-5000', 100)).toEqual({ start: 50, end: 99 })
		expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable')
		expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable')
		// Ignored: several ranges, another unit, nonsense, a reversed range.
		expect(parseRange('bytes=0-1,5-6', 100)).toBe('whole')
		expect(parseRange('items=0-1', 100)).toBe('whole')
		expect(parseRange('bytes=abc', 100)).toBe('whole')
		expect(parseRange('bytes=9-2', 100)).toBe('whole')
	})

	it.each([
		['local folder', () => local],
		['S3 (s3rver)', () => bucket],
	])('answers 200, 206, 304, 416 and 404 from the %s', async (_name, store) => {
		await store().put('tests/serve.txt', bytes(ALPHABET), { contentType: 'text/plain' })
		const request = (headers: Record<string, string> = {}, method = 'GET') => new Request(`${SITE}/x`, { method, headers })
		const options = { cacheControl: 'public, max-age=60' }
		const whole = await storedFileResponse(store(), 'tests/serve.txt', request(), options)
		expect(whole.status).toBe(200)
		expect(whole.headers.get('content-length')).toBe('36')
		expect(whole.headers.get('accept-ranges')).toBe('bytes')
		expect(whole.headers.get('cache-control')).toBe('public, max-age=60')
		expect(await whole.text()).toBe(ALPHABET)
		const etag = whole.headers.get('etag')!
		const partial = await storedFileResponse(store(), 'tests/serve.txt', request({ range: 'bytes=-6' }), options)
		expect(partial.status).toBe(206)
		expect(partial.headers.get('content-range')).toBe('bytes 30-35/36')
		expect(await partial.text()).toBe('456789')
		const stale = await storedFileResponse(store(), 'tests/serve.txt', request({ range: 'bytes=0-1', 'if-range': '"autre"' }), options)
		expect(stale.status).toBe(200)
		await stale.body?.cancel()
		expect((await storedFileResponse(store(), 'tests/serve.txt', request({ 'if-none-match': etag }), options)).status).toBe(304)
		const beyond = await storedFileResponse(store(), 'tests/serve.txt', request({ range: 'bytes=36-' }), options)
		expect(beyond.status).toBe(416)
		expect(beyond.headers.get('content-range')).toBe('bytes */36')
		const head = await storedFileResponse(store(), 'tests/serve.txt', request({}, 'HEAD'), options)
		expect(head.status).toBe(200)
		expect(head.headers.get('content-length')).toBe('36')
		expect(await head.text()).toBe('')
		expect((await storedFileResponse(store(), 'tests/none.txt', request(), options)).status).toBe(404)
	})
})
