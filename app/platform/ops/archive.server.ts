import { createHash } from 'node:crypto'
import { once } from 'node:events'
import fs from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import { getT } from '../i18n.server.ts'

/*
 * The backup archive: one gzip file holding a sequence of entries. Each entry is a line of JSON
 * (its header, with the byte size of its body) followed by exactly that many bytes:
 *
 *   BAND-SITE-BACKUP 1\n
 *   {"type":"manifest",…}\n            what, when, from which schema version
 *   {"type":"rows","table":"user",…}\n<JSON lines>   one entry per chunk of a table's rows
 *   {"type":"file","key":"…",…}\n<bytes>              one entry per stored file
 *   {"type":"end",…}\n                  counts, and the SHA-256 of every byte before it
 *
 * A reader trusts nothing until the end entry: a truncated or altered file lacks it, fails gzip's
 * own check, or fails the digest, and is refused before anything is restored.
 * `zcat file | head -c 2000` shows the manifest.
 */

const ARCHIVE_MAGIC = 'BAND-SITE-BACKUP'
export const ARCHIVE_FORMAT = 1

export interface Manifest {
	type: 'manifest'
	format: number
	createdAt: string
	/** The database the archive was taken from, and how files were stored. */
	source: { database: 'pglite' | 'postgres'; storage: 'local' | 's3' }
	/** Migrations applied to the source (drizzle's `created_at`, i.e. the journal's `when`), oldest first. */
	migrations: number[]
	size: 0
}

interface RowsEntry {
	type: 'rows'
	table: string
	rows: number
	size: number
}

interface FileEntry {
	type: 'file'
	key: string
	contentType: string
	sha256: string
	size: number
}

interface SequenceEntry {
	type: 'sequences'
	/** Sequence name → its last value (null: never used). */
	values: Record<string, number | null>
	size: 0
}

export interface EndEntry {
	type: 'end'
	tables: Record<string, number>
	files: number
	fileBytes: number
	sha256: string
	size: 0
}

export type Entry = Manifest | RowsEntry | FileEntry | SequenceEntry | EndEntry

/** Why an archive cannot be used, in words for the person running the command. */
export class ArchiveError extends Error {
	constructor(message: string) {
		super(message)
		this.name = 'ArchiveError'
	}
}

export interface ArchiveWriter {
	add(
		header: Omit<RowsEntry, 'size'> | Omit<FileEntry, 'size'> | Omit<Manifest, 'size'> | Omit<SequenceEntry, 'size'>,
		body?: Uint8Array,
	): Promise<void>
	/** Writes the end entry and closes the file; resolves once it is on disk. */
	finish(counts: { tables: Record<string, number>; files: number; fileBytes: number }): Promise<void>
	abort(): Promise<void>
}

/** Opens `file` for writing (it is created or replaced). */
export function createArchiveWriter(file: string): ArchiveWriter {
	const gzip = createGzip({ level: 6 })
	const out = fs.createWriteStream(file, { mode: 0o600 })
	const done = pipeline(gzip, out)
	done.catch(() => {})
	const digest = createHash('sha256')
	const write = async (chunk: Uint8Array, hashed = true) => {
		if (hashed) digest.update(chunk)
		if (!gzip.write(chunk)) await Promise.race([once(gzip, 'drain'), done])
	}
	let started = false
	const start = async () => {
		if (started) return
		started = true
		await write(Buffer.from(`${ARCHIVE_MAGIC} ${ARCHIVE_FORMAT}\n`))
	}
	return {
		async add(header, body = new Uint8Array()) {
			await start()
			await write(Buffer.from(`${JSON.stringify({ ...header, size: body.byteLength })}\n`))
			if (body.byteLength > 0) await write(body)
		},
		async finish(counts) {
			await start()
			const end: EndEntry = { type: 'end', ...counts, sha256: digest.digest('hex'), size: 0 }
			await write(Buffer.from(`${JSON.stringify(end)}\n`), false)
			gzip.end()
			await done
		},
		async abort() {
			gzip.destroy()
			await done.catch(() => {})
		},
	}
}

/**
 * Reads an archive's entries in order, each with its body. Throws an ArchiveError on anything
 * malformed; the end entry's digest and counts are checked when it is reached (so a consumer
 * that acts on entries must read the whole archive once first: see `verifyArchive`).
 */
export async function* readArchive(file: string): AsyncGenerator<{ entry: Entry; body: Buffer }> {
	let input: fs.ReadStream
	const head = Buffer.alloc(2)
	try {
		const handle = await fs.promises.open(file, 'r')
		await handle.read(head, 0, 2, 0).finally(() => handle.close())
		input = fs.createReadStream(file)
	} catch {
		throw new ArchiveError(getT()('ops.archive.unreadable', { file }))
	}
	if (head[0] !== 0x1f || head[1] !== 0x8b) {
		input.destroy()
		throw new ArchiveError(getT()('ops.archive.notABackup'))
	}
	const gunzip = createGunzip()
	input.on('error', (error) => gunzip.destroy(error))
	input.pipe(gunzip)

	const digest = createHash('sha256')
	let buffer: Buffer = Buffer.alloc(0)
	let ended = false
	const chunks = gunzip[Symbol.asyncIterator]()
	const more = async (): Promise<boolean> => {
		if (ended) return false
		let next: IteratorResult<Buffer>
		try {
			next = await chunks.next()
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code
			if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
				throw new ArchiveError(getT()('ops.archive.badCompression'))
			}
			throw error
		}
		if (next.done) {
			ended = true
			return false
		}
		buffer = buffer.length ? Buffer.concat([buffer, next.value]) : next.value
		return true
	}
	const take = (length: number) => {
		const part = buffer.subarray(0, length)
		buffer = buffer.subarray(length)
		return part
	}
	const line = async (): Promise<Buffer | null> => {
		for (;;) {
			const newline = buffer.indexOf(10)
			if (newline >= 0) return take(newline + 1)
			if (buffer.length > 1024 * 1024) throw new ArchiveError(getT()('ops.archive.headerTooLong'))
			if (!(await more())) return null
		}
	}
	const truncated = () => new ArchiveError(getT()('ops.archive.truncated'))

	try {
		const magic = await line()
		const [name, version] = magic?.toString('utf8').trim().split(' ') ?? []
		if (name !== ARCHIVE_MAGIC) throw new ArchiveError(getT()('ops.archive.notABackup'))
		const format = Number(version)
		if (!Number.isInteger(format) || format > ARCHIVE_FORMAT) {
			throw new ArchiveError(getT()('ops.archive.newerFormat', { version, known: ARCHIVE_FORMAT }))
		}
		digest.update(magic!)
		const counts = { tables: {} as Record<string, number>, files: 0, fileBytes: 0 }
		let first = true
		for (;;) {
			const raw = await line()
			if (!raw) throw truncated()
			let entry: Entry
			try {
				entry = JSON.parse(raw.toString('utf8')) as Entry
			} catch {
				throw truncated()
			}
			if (!entry || typeof entry !== 'object' || typeof entry.size !== 'number' || entry.size < 0) throw truncated()
			if (first !== (entry.type === 'manifest')) throw new ArchiveError(getT()('ops.archive.noManifest'))
			first = false
			if (entry.type === 'end') {
				if (entry.sha256 !== digest.digest('hex')) throw new ArchiveError(getT()('ops.archive.digest'))
				const tablesMatch =
					Object.keys(counts.tables).every((table) => table in entry.tables) &&
					Object.entries(entry.tables).every(([table, rows]) => (counts.tables[table] ?? 0) === rows)
				if (!tablesMatch || entry.files !== counts.files || entry.fileBytes !== counts.fileBytes) {
					throw new ArchiveError(getT()('ops.archive.counts'))
				}
				while (buffer.length === 0 && (await more()));
				if (buffer.length > 0) throw new ArchiveError(getT()('ops.archive.trailing'))
				yield { entry, body: Buffer.alloc(0) }
				return
			}
			digest.update(raw)
			while (buffer.length < entry.size) if (!(await more())) throw truncated()
			const body = Buffer.from(take(entry.size))
			digest.update(body)
			if (entry.type === 'rows') counts.tables[entry.table] = (counts.tables[entry.table] ?? 0) + entry.rows
			if (entry.type === 'file') {
				if (createHash('sha256').update(body).digest('hex') !== entry.sha256) {
					throw new ArchiveError(getT()('ops.archive.fileDigest', { key: entry.key }))
				}
				counts.files += 1
				counts.fileBytes += body.byteLength
			}
			yield { entry, body }
		}
	} finally {
		input.destroy()
		gunzip.destroy()
	}
}

/**
 * Reads the whole archive once and returns its manifest, its end entry and the size of each file
 * it holds, or throws an ArchiveError.
 */
export async function verifyArchive(file: string): Promise<{ manifest: Manifest; end: EndEntry; files: Map<string, number> }> {
	let manifest: Manifest | undefined
	const files = new Map<string, number>()
	for await (const { entry } of readArchive(file)) {
		if (entry.type === 'manifest') manifest = entry
		if (entry.type === 'file') files.set(entry.key, entry.size)
		if (entry.type === 'end') return { manifest: manifest!, end: entry, files }
	}
	throw new ArchiveError(getT()('ops.archive.truncated'))
}
