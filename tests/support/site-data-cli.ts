import { spawn } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { ROOT } from './site-server.ts'

/**
 * The operator's commands (`npm run backup | restore | move-to-postgres`, i.e. scripts/site-data.ts)
 * in a child process with only the given environment; resolves with the exit code and everything
 * written to stdout and stderr.
 */
export function siteDataCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve, reject) => {
		let output = ''
		const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'node'), ['scripts/site-data.ts', ...args], {
			cwd: ROOT,
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), IGNORE_DOTENV: '1', LOG_LEVEL: 'warn', ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
		child.once('error', reject)
		child.once('exit', (code) => resolve({ code, output }))
	})
}
