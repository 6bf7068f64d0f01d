import { describe, expect, it } from 'vitest'
import { carriesMetricsToken, isMetricsToken } from './metrics-token.server.ts'

const TOKEN = 'jeton-de-metriques-assez-long-0123456789'
const withAuthorization = (value: string) => new Request('http://localhost/metrics', { headers: { authorization: value } })

describe('the metrics token', () => {
	it('is recognised only when it is exactly the configured one', () => {
		expect(isMetricsToken(TOKEN, TOKEN)).toBe(true)
		// Shorter, longer, a prefix, one character off: all refused the same way (digests of equal length are compared).
		for (const given of ['', 'x', TOKEN.slice(0, -1), `${TOKEN}0`, TOKEN.replace(/9$/, '8'), TOKEN.repeat(20)]) {
			expect(isMetricsToken(given, TOKEN)).toBe(false)
		}
	})

	it('never lets anyone in when no token is configured', () => {
		expect(isMetricsToken('', undefined)).toBe(false)
		expect(isMetricsToken('', '')).toBe(false)
		expect(isMetricsToken('quelque-chose', undefined)).toBe(false)
	})

	it('is read from the Bearer authorization of a request', () => {
		expect(carriesMetricsToken(withAuthorization(`Bearer ${TOKEN}`), TOKEN)).toBe(true)
		expect(carriesMetricsToken(withAuthorization(`bearer ${TOKEN}`), TOKEN)).toBe(true)
		expect(carriesMetricsToken(withAuthorization(`Basic ${TOKEN}`), TOKEN)).toBe(false)
		expect(carriesMetricsToken(withAuthorization('Bearer '), TOKEN)).toBe(false)
		expect(carriesMetricsToken(new Request('http://localhost/metrics'), TOKEN)).toBe(false)
	})
})
