import { describe, expect, it } from 'vitest'
import { isValidHost } from './request-guard.ts'

describe('isValidHost', () => {
	it('accepts names, addresses and ports a browser sends', () => {
		for (const host of ['localhost', 'localhost:3000', 'groupe.example', '127.0.0.1:8080', '[::1]:3000', 'xn--gupe-9oa.fr'])
			expect(isValidHost(host), host).toBe(true)
	})
	it('refuses a port out of range, a missing host, spaces, paths and credentials', () => {
		for (const host of [undefined, '', 'x:99999', 'x:0', 'a b', 'x/y', 'user@x', 'x:', '[::1', 'é.fr'])
			expect(isValidHost(host), String(host)).toBe(false)
	})
})
