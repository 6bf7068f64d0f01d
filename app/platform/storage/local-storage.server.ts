import { hkdfSync, randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import {
	assertStorageKey,
	clampExpiry,
	contentTypeOfKey,
	type ByteRange,
	type Storage,
	type StoredObject,
	type StoredObjectInfo,
} from './storage.server.ts'
import { hmac, sameSecret } from '../random-token.server.ts'

/** Where signed links to local files are answered (app/routes/api/files.ts). */
export const SIGNED_FILES_PREFIX = '/files/'

export type SignatureCheck = 'ok' | 'expired' | 'invalid'

export interface LocalStorage extends Storage {
	readonly kind: 'local'
	readonly root: string
	/** Checks a signed link's `expires`, `sig` (and `name`) for this key. */
	verifySignature(key: string, params: URLSearchParams, now?: Date): SignatureCheck
}

/**
 * Files in a folder (DATA_DIR/files). A key becomes a path only after `assertStorageKey`, and the
 * resolved path is checked to stay inside the folder. Writes go to a temporary file in the same
 * folder tree, then a rename puts it in place in one step.
 */
export async function createLocalStorage(options: { root: string; secret: string; siteUrl: string }): Promise<LocalStorage> {
	const root = path.resolve(options.root)
	const tempDir = path.join(root, '.tmp')
	await fs.mkdir(tempDir, { recursive: true })
	await sweepTemp(tempDir)
	// A key of its own for links, derived from the site's secret: the secret itself never signs two kinds of thing.
	const signingKey = Buffer.from(hkdfSync('sha256', options.secret, 'band-site', 'storage signed urls v1', 32))
	const siteUrl = options.siteUrl.replace(/\/+$/, '')

	const fileOf = (key: string) => {
		assertStorageKey(key)
		const file = path.resolve(root, ...key.split('/'))
		if (!file.startsWith(root + path.sep)) throw new Error('storage key escapes the folder')
		return file
	}

	const sign = (key: string, expires: number, name: string) => hmac(signingKey, `${key}\n${expires}\n${name}`)

	const infoOf = (key: string, stat: { size: number; mtimeMs: number; mtime: Date }): StoredObjectInfo => ({
		size: stat.size,
		contentType: contentTypeOfKey(key),
		etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
		lastModified: stat.mtime,
	})

	const missing = (error: unknown) =>
		(error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR'

	return {
		kind: 'local',
		root,

		async put(key, body) {
			const file = fileOf(key)
			await fs.mkdir(path.dirname(file), { recursive: true })
			const temp = path.join(tempDir, randomUUID())
			try {
				await fs.writeFile(temp, body, { flag: 'wx' })
				await fs.rename(temp, file)
			} catch (error) {
				await fs.rm(temp, { force: true })
				throw error
			}
			return infoOf(key, await fs.stat(file))
		},

		async putStream(key, body) {
			const file = fileOf(key)
			await fs.mkdir(path.dirname(file), { recursive: true })
			const temp = path.join(tempDir, randomUUID())
			try {
				const handle = await fs.open(temp, 'wx')
				try {
					for await (const piece of body) await handle.write(piece)
				} finally {
					await handle.close()
				}
				await fs.rename(temp, file)
			} catch (error) {
				await fs.rm(temp, { force: true })
				throw error
			}
			return infoOf(key, await fs.stat(file))
		},

		async stat(key) {
			try {
				const stat = await fs.stat(fileOf(key))
				return stat.isFile() ? infoOf(key, stat) : null
			} catch (error) {
				if (missing(error)) return null
				throw error
			}
		},

		async get(key, { range }: { range?: ByteRange } = {}): Promise<StoredObject | null> {
			let handle: fs.FileHandle
			try {
				handle = await fs.open(fileOf(key), 'r')
			} catch (error) {
				if (missing(error)) return null
				throw error
			}
			try {
				const stat = await handle.stat()
				if (!stat.isFile()) {
					await handle.close()
					return null
				}
				const info = infoOf(key, stat)
				if (range && (range.start < 0 || range.end < range.start || range.end >= info.size)) {
					throw new RangeError('range outside the file')
				}
				// The stream owns the handle from here and closes it at the end, or on cancel.
				const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {})
				return { ...info, body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, range }
			} catch (error) {
				await handle.close().catch(() => {})
				throw error
			}
		},

		async read(key) {
			try {
				return new Uint8Array(await fs.readFile(fileOf(key)))
			} catch (error) {
				if (missing(error)) return null
				throw error
			}
		},

		async delete(key) {
			await fs.rm(fileOf(key), { force: true })
		},

		async signedUrl(key, signOptions = {}) {
			assertStorageKey(key)
			const expires = Math.floor(Date.now() / 1000) + clampExpiry(signOptions.expiresInSeconds)
			const name = signOptions.downloadName ?? ''
			const params = new URLSearchParams({ expires: String(expires) })
			if (name) params.set('name', name)
			params.set('sig', sign(key, expires, name))
			return `${siteUrl}${SIGNED_FILES_PREFIX}${key}?${params}`
		},

		verifySignature(key, params, now = new Date()) {
			const expiresText = params.get('expires') ?? ''
			const sig = params.get('sig') ?? ''
			if (!/^\d{1,12}$/.test(expiresText) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return 'invalid'
			if (!sameSecret(sig, sign(key, Number(expiresText), params.get('name') ?? ''))) return 'invalid'
			return Number(expiresText) * 1000 <= now.getTime() ? 'expired' : 'ok'
		},
	}
}

/** Temporary files a crash left behind (older than an hour: a write in progress is never that old). */
async function sweepTemp(tempDir: string) {
	const limit = Date.now() - 3600_000
	for (const name of await fs.readdir(tempDir)) {
		const file = path.join(tempDir, name)
		const stat = await fs.stat(file).catch(() => null)
		if (stat && stat.mtimeMs < limit) await fs.rm(file, { force: true })
	}
}

export function isLocalStorage(storage: Storage): storage is LocalStorage {
	return storage.kind === 'local' && 'verifySignature' in storage
}
