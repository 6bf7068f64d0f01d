import fs from 'node:fs'
import path from 'node:path'
import { parseEnv as parseDotEnv } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parseEnv } from './env.server.ts'

describe('parseEnv', () => {
	it('runs on its defaults with an empty environment', () => {
		const env = parseEnv({})
		expect(env.PORT).toBe(3000)
		expect(env.HOST).toBe('0.0.0.0')
		expect(env.DATA_DIR).toBe(path.resolve(process.cwd(), 'data'))
		expect(path.isAbsolute(env.DATA_DIR)).toBe(true)
		expect(env.SITE_URL).toBe('http://localhost:3000')
		expect(env.DATABASE_URL).toBeUndefined()
		expect(env.ADMIN_EMAILS).toEqual([])
		expect(env.ACCENT_COLOR).toBe('#ff5a36')
		expect(env.LOG_LEVEL).toBe('info')
		expect(env.NODE_ENV).toBe('development')
	})

	it('derives SITE_URL from PORT, and resolves DATA_DIR', () => {
		const env = parseEnv({ PORT: '8080', DATA_DIR: 'var/site' })
		expect(env.PORT).toBe(8080)
		expect(env.SITE_URL).toBe('http://localhost:8080')
		expect(env.DATA_DIR).toBe(path.resolve(process.cwd(), 'var/site'))
	})

	it('keeps an explicit SITE_URL, without its trailing slash', () => {
		expect(parseEnv({ SITE_URL: 'https://groupe.example/', PORT: '8080' }).SITE_URL).toBe('https://groupe.example')
	})

	it('reads ADMIN_EMAILS as a trimmed, lower-cased list', () => {
		expect(parseEnv({ ADMIN_EMAILS: ' Ada@Exemple.fr , bob@exemple.fr,, ' }).ADMIN_EMAILS).toEqual(['ada@exemple.fr', 'bob@exemple.fr'])
	})

	it('keeps TEST_SIGN_UP_FLOOR_MS under NODE_ENV=test only: no server can be told to answer sign-ups faster', () => {
		expect(parseEnv({ NODE_ENV: 'test', TEST_SIGN_UP_FLOOR_MS: '0' }).TEST_SIGN_UP_FLOOR_MS).toBe(0)
		expect(parseEnv({ NODE_ENV: 'production', TEST_SIGN_UP_FLOOR_MS: '0' }).TEST_SIGN_UP_FLOOR_MS).toBeUndefined()
		expect(parseEnv({ TEST_SIGN_UP_FLOOR_MS: '0' }).TEST_SIGN_UP_FLOOR_MS).toBeUndefined()
		expect(parseEnv({ NODE_ENV: 'test' }).TEST_SIGN_UP_FLOOR_MS).toBeUndefined()
	})

	it.each(['red', '#fff', '#12345g', 'ff5a36', '#ff5a3600'])('rejects ACCENT_COLOR=%j, naming it', (colour) => {
		expect(() => parseEnv({ ACCENT_COLOR: colour })).toThrow(/ACCENT_COLOR/)
	})

	it('accepts an ACCENT_COLOR in capitals', () => {
		expect(parseEnv({ ACCENT_COLOR: '#1D4ED8' }).ACCENT_COLOR).toBe('#1D4ED8')
	})

	it.each([
		['PORT', '0'],
		['PORT', '65536'],
		['PORT', 'trois mille'],
		['DATABASE_URL', 'not a url'],
		['AUTH_SECRET', 'too-short'],
		['LOG_LEVEL', 'verbose'],
		['CONTACT_EMAIL', 'contact'],
	])('rejects %s=%j, naming it', (name, value) => {
		expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`Invalid environment:[\\s\\S]*${name}`))
	})

	it('treats an empty variable as unset', () => {
		const env = parseEnv({ SITE_URL: '', DATABASE_URL: '', AUTH_SECRET: '', CONTACT_EMAIL: '', PORT: '', DATA_DIR: '' })
		expect(env.SITE_URL).toBe('http://localhost:3000')
		expect(env.DATABASE_URL).toBeUndefined()
		expect(env.AUTH_SECRET).toBeUndefined()
		expect(env.DATA_DIR).toBe(path.resolve(process.cwd(), 'data'))
	})

	it('accepts .env.example as it is shipped', () => {
		const example = parseDotEnv(fs.readFileSync(path.resolve(import.meta.dirname, '../../.env.example'), 'utf8'))
		const env = parseEnv(example)
		expect(env.PORT).toBe(3000)
		expect(env.SITE_URL).toBe('http://localhost:3000')
		expect(env.DATABASE_URL).toBeUndefined()
	})
})
