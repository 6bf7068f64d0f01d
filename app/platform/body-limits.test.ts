import { describe, expect, it } from 'vitest'
import { bodyLimitFor, FORM_BODY_BYTES, SMALL_BODY_BYTES } from './body-limits.ts'

describe('bodyLimitFor', () => {
	it('gives the account forms, Better Auth and the JSON API a small limit', () => {
		for (const path of ['/auth/signin', '/auth/signup', '/auth/claim', '/api/auth/sign-in/email', '/api/me'])
			expect(bodyLimitFor(path), path).toBe(SMALL_BODY_BYTES)
	})
	it('gives the two image upload routes room for their images', () => {
		expect(bodyLimitFor('/dashboard/admin/media')).toBe(16 * 1024 * 1024)
		expect(bodyLimitFor('/dashboard/settings/avatar')).toBe(6 * 1024 * 1024)
		expect(bodyLimitFor('/dashboard/settings/avatar/abc')).toBe(6 * 1024 * 1024)
	})
	it('gives the file and CSV uploads of codes, the newsletter and the setlist what their routes accept', () => {
		expect(bodyLimitFor('/dashboard/admin/codes/c1/files')).toBeGreaterThan(200 * 1024 * 1024)
		expect(bodyLimitFor('/dashboard/admin/codes/c1/import')).toBeGreaterThan(8 * 1024 * 1024)
		expect(bodyLimitFor('/dashboard/admin/newsletter/subscribers/import')).toBeGreaterThan(20 * 1024 * 1024)
		expect(bodyLimitFor('/dashboard/admin/setlist/songs/import')).toBeGreaterThan(512 * 1024)
		expect(bodyLimitFor('/dashboard/admin/codes/c1')).toBe(FORM_BODY_BYTES)
		// A form sent by the page's script goes to the page's `.data` address: the same limit.
		expect(bodyLimitFor('/dashboard/admin/newsletter/subscribers/import.data')).toBe(
			bodyLimitFor('/dashboard/admin/newsletter/subscribers/import'),
		)
		expect(bodyLimitFor('/dashboard/admin/codes/c1/import.data')).toBeGreaterThan(8 * 1024 * 1024)
	})
	it('gives every other form the form limit, even a path that only starts like an upload route', () => {
		expect(bodyLimitFor('/dashboard/admin/events/new')).toBe(FORM_BODY_BYTES)
		expect(bodyLimitFor('/dashboard/admin/mediatheque')).toBe(FORM_BODY_BYTES)
		expect(bodyLimitFor('/api/meh')).toBe(FORM_BODY_BYTES)
	})
})
