import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Logger } from 'pino'
import { writeBackup, type BackupSummary, type Site } from './backup.server.ts'
import { getT } from '../i18n.server.ts'

/*
 * The embedded database can be opened by one process only, so a command-line tool cannot read it
 * while the server runs. Instead the server listens on a Unix socket in the data folder, readable
 * and writable by its own user only (the same people who could read the folder anyway), and
 * answers a few commands: today `backup`, which streams a fresh archive back to the caller.
 *
 * Protocol: the client writes one JSON line `{"command":"backup"}`; the server answers one JSON
 * line, `{"ok":true,"summary":…}` followed by the archive's bytes, or `{"ok":false,"error":"…"}`.
 */

function controlSocketPath(dataDir: string): string {
	return path.join(dataDir, 'control.sock')
}

export async function startControlSocket(site: Site & { dataDir: string; logger: Logger }): Promise<() => Promise<void>> {
	const socketPath = controlSocketPath(site.dataDir)
	// We hold the data folder's lock, so a socket file left here is a crashed server's.
	fs.rmSync(socketPath, { force: true })
	let busy = false
	const server = net.createServer((socket) => {
		let request = ''
		socket.setEncoding('utf8')
		socket.on('error', () => socket.destroy())
		socket.on('data', (chunk: string) => {
			request += chunk
			if (!request.includes('\n')) {
				if (request.length > 4096) socket.destroy()
				return
			}
			socket.removeAllListeners('data')
			let command: unknown
			try {
				command = (JSON.parse(request.slice(0, request.indexOf('\n'))) as { command?: unknown }).command
			} catch {
				command = undefined
			}
			if (command !== 'backup') {
				socket.end(`${JSON.stringify({ ok: false, error: getT()('ops.backup.unknownCommand') })}\n`)
				return
			}
			if (busy) {
				socket.end(`${JSON.stringify({ ok: false, error: getT()('ops.backup.busy') })}\n`)
				return
			}
			busy = true
			void answerBackup(site, socket).finally(() => (busy = false))
		})
	})
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen({ path: socketPath, readableAll: false, writableAll: false }, () => {
			server.off('error', reject)
			resolve()
		})
	})
	fs.chmodSync(socketPath, 0o600)
	return async () => {
		await new Promise<void>((resolve) => server.close(() => resolve()))
		fs.rmSync(socketPath, { force: true })
	}
}

async function answerBackup(site: Site & { logger: Logger }, socket: net.Socket): Promise<void> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-site-backup-'))
	const file = path.join(dir, 'site.backup')
	try {
		const summary: BackupSummary = await writeBackup(site, file)
		site.logger.info({ tables: summary.tables, files: summary.files, bytes: summary.archiveBytes }, 'backup streamed to the command line')
		socket.write(`${JSON.stringify({ ok: true, summary: { ...summary, file: undefined } })}\n`)
		await pipeline(fs.createReadStream(file), socket)
	} catch (error) {
		site.logger.error({ err: error }, 'backup for the command line failed')
		if (!socket.destroyed)
			socket.end(`${JSON.stringify({ ok: false, error: getT()('ops.backup.failedBecause', { reason: (error as Error).message }) })}\n`)
	} finally {
		fs.rmSync(dir, { recursive: true, force: true })
	}
}

/**
 * Asks the server running on `dataDir` for a backup and writes it to `file`. Resolves to null when
 * no server answers on the socket (none runs: the caller may then take the lock itself).
 */
export async function requestBackup(dataDir: string, file: string): Promise<Omit<BackupSummary, 'file'> | null> {
	const socketPath = controlSocketPath(dataDir)
	if (!fs.existsSync(socketPath)) return null
	const socket = net.createConnection(socketPath)
	try {
		await new Promise<void>((resolve, reject) => {
			socket.once('connect', resolve)
			socket.once('error', reject)
		})
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code
		if (code === 'ECONNREFUSED' || code === 'ENOENT') return null
		throw error
	}
	socket.write(`${JSON.stringify({ command: 'backup' })}\n`)
	const partial = `${file}.partial-${process.pid}`
	let out: fs.WriteStream | undefined
	try {
		const summary = await new Promise<Omit<BackupSummary, 'file'>>((resolve, reject) => {
			let head = Buffer.alloc(0)
			const onData = (chunk: Buffer) => {
				head = Buffer.concat([head, chunk])
				const newline = head.indexOf(10)
				if (newline < 0) return
				socket.off('data', onData)
				socket.pause()
				const answer = JSON.parse(head.subarray(0, newline).toString('utf8')) as {
					ok: boolean
					error?: string
					summary?: Omit<BackupSummary, 'file'>
				}
				if (!answer.ok) return reject(new Error(answer.error ?? getT()('ops.backup.failed')))
				out = fs.createWriteStream(partial, { mode: 0o600 })
				const rest = head.subarray(newline + 1)
				if (rest.length > 0) out.write(rest)
				pipeline(socket, out).then(() => resolve(answer.summary!), reject)
			}
			socket.on('data', onData)
			socket.once('error', reject)
			socket.once('end', () => {
				if (!out) reject(new Error(getT()('ops.backup.noAnswer')))
			})
		})
		fs.renameSync(partial, file)
		return summary
	} catch (error) {
		fs.rmSync(partial, { force: true })
		throw error
	} finally {
		socket.destroy()
	}
}
