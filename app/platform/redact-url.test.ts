import { describe, expect, it } from 'vitest'
import { redactUrl } from './redact-url.ts'

describe('redactUrl', () => {
	it('hides the token of every mailed link, and a provider’s code and state', () => {
		expect(redactUrl('/auth/claim?mode=resetPassword&token=abc.DEF-123')).toBe('/auth/claim?mode=resetPassword&token=[redacted]')
		expect(redactUrl('/auth/claim?token=secret&mode=setup')).toBe('/auth/claim?token=[redacted]&mode=setup')
		expect(redactUrl('/api/auth/callback/oidc?code=xyz&state=st&iss=x')).toBe(
			'/api/auth/callback/oidc?code=[redacted]&state=[redacted]&iss=x',
		)
		expect(redactUrl('/redeem?CODE=ABCD-1234#x')).toBe('/redeem?CODE=[redacted]#x')
	})
	it('leaves everything else alone', () => {
		expect(redactUrl('/events?page=2&q=token')).toBe('/events?page=2&q=token')
		expect(redactUrl('/auth/signin?redirectTo=%2Fdashboard')).toBe('/auth/signin?redirectTo=%2Fdashboard')
	})
})
