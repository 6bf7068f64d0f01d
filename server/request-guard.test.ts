import { describe, expect, it } from 'vitest'
import { isPlausiblePath, isValidHost } from './request-guard.ts'

describe('isValidHost', () => {
	it('accepts names, addresses and ports a browser sends', () => {
		for (const host of ['localhost', 'localhost:3000', 'groupe.example', '127.0.0.1:8080', '[::1]:3000', 'xn--gupe-9oa.fr'])
			expect(isValidHost(host), host).toBe(true)
	})
	it('refuses a port out of range, a missing host, spaces, paths and credentials', () => {
		for (const host of [undefined, '', 'x:99999', 'x:0', 'a b', 'x/y', 'user@x', 'x:', '[::1', 'é.fr'])
			expect(isValidHost(host), String(host)).toBe(false)
	})
	it('answers the same the second time, and after many hosts were seen', () => {
		for (let k = 0; k < 200; k++) expect(isValidHost(`site-${k}.example:${1_000 + k}`)).toBe(true)
		for (const host of ['localhost:3000', 'site-199.example:1199']) expect(isValidHost(host), host).toBe(true)
		for (const host of ['x:99999', 'a b', 'x:99999']) expect(isValidHost(host), host).toBe(false)
	})
})

describe('isPlausiblePath', () => {
	it('accepts every kind of address the site makes', () => {
		for (const path of [
			'/',
			'/events/AbC123xyz_-9',
			'/dashboard/admin/codes/batches/AbC123xyz_-9/export.csv',
			'/media/media/abc/1200.avif',
		])
			expect(isPlausiblePath(path), path).toBe(true)
		expect(isPlausiblePath('/x'.repeat(32))).toBe(true)
		expect(isPlausiblePath(`/${'x'.repeat(1_023)}`)).toBe(true)
	})
	it('refuses a path longer or deeper than any of them could be', () => {
		expect(isPlausiblePath('/x'.repeat(33))).toBe(false)
		expect(isPlausiblePath(`/${'x'.repeat(1_024)}`)).toBe(false)
		expect(isPlausiblePath('/a'.repeat(4_000))).toBe(false)
	})
})
