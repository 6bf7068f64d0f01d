import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * bench/codes.ts runs the batch job under plain Node, which strips types but cannot load JSX: what
 * it imports must never lead to a .tsx module (the mails, the pages). Vite loads JSX, so only a
 * real Node process tells.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..')
const MODULES = ['app/features/codes/batches.server.ts', 'app/features/codes/campaigns.server.ts', 'app/platform/db/client.server.ts']

describe('the codes bench’s imports', () => {
	it('load in plain Node, without any .tsx on the way', () => {
		const script = MODULES.map((file) => `await import(${JSON.stringify(`./${file}`)})`).join(';')
		const out = execFileSync(process.execPath, ['--input-type=module', '-e', `${script};console.log('ok')`], {
			cwd: ROOT,
			encoding: 'utf8',
			env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
			timeout: 30_000,
		})
		expect(out.trim()).toBe('ok')
	}, 40_000)
})
