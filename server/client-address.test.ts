import { describe, expect, it } from 'vitest'
import { clientAddress, createProxyTrust } from './client-address.ts'

describe('client address without TRUST_PROXY', () => {
	const trustNobody = createProxyTrust(undefined)

	it('is the socket’s address, and a forged X-Forwarded-For is ignored', () => {
		expect(clientAddress('203.0.113.9', '198.51.100.1', trustNobody)).toBe('203.0.113.9')
		expect(clientAddress('203.0.113.9', ['198.51.100.1', '10.0.0.1'], trustNobody)).toBe('203.0.113.9')
	})

	it('ignores the header even from loopback', () => {
		expect(clientAddress('127.0.0.1', '198.51.100.1', trustNobody)).toBe('127.0.0.1')
		expect(clientAddress('::1', '198.51.100.1', createProxyTrust(''))).toBe('::1')
	})

	it('unwraps an IPv4-mapped IPv6 socket address', () => {
		expect(clientAddress('::ffff:203.0.113.9', undefined, trustNobody)).toBe('203.0.113.9')
	})

	it('has a placeholder when the socket has no address', () => {
		expect(clientAddress(undefined, '198.51.100.1', trustNobody)).toBe('0.0.0.0')
	})
})

describe('client address behind a trusted proxy', () => {
	it('takes the right-most address that is not a trusted proxy', () => {
		const trust = createProxyTrust('127.0.0.1')
		// The client prepended a forged address; the proxy appended the real one.
		expect(clientAddress('127.0.0.1', '6.6.6.6, 203.0.113.9', trust)).toBe('203.0.113.9')
	})

	it('skips every trusted hop of a chain of proxies', () => {
		const trust = createProxyTrust('127.0.0.1, 10.0.0.0/8')
		expect(clientAddress('127.0.0.1', '6.6.6.6, 203.0.113.9, 10.1.2.3, 10.0.0.7', trust)).toBe('203.0.113.9')
		expect(clientAddress('10.0.0.7', ['6.6.6.6, 203.0.113.9', '10.1.2.3'], trust)).toBe('203.0.113.9')
	})

	it('uses the socket address when the peer is not trusted, whatever the header says', () => {
		const trust = createProxyTrust('10.0.0.0/8')
		expect(clientAddress('203.0.113.9', '10.0.0.1, 198.51.100.1', trust)).toBe('203.0.113.9')
	})

	it('uses the socket address when a trusted proxy sends no header', () => {
		expect(clientAddress('127.0.0.1', undefined, createProxyTrust('loopback'))).toBe('127.0.0.1')
	})

	it('recognises an IPv4-mapped IPv6 peer as the trusted IPv4 proxy, and unwraps mapped hops', () => {
		const trust = createProxyTrust('127.0.0.1')
		expect(clientAddress('::ffff:127.0.0.1', '::ffff:203.0.113.9', trust)).toBe('203.0.113.9')
		expect(createProxyTrust('127.0.0.1')('::ffff:127.0.0.1')).toBe(true)
	})

	it('understands "loopback" for IPv4 and IPv6', () => {
		const trust = createProxyTrust('loopback')
		expect(trust('127.0.0.1')).toBe(true)
		expect(trust('127.8.9.10')).toBe(true)
		expect(trust('::1')).toBe(true)
		expect(trust('::ffff:127.0.0.1')).toBe(true)
		expect(trust('128.0.0.1')).toBe(false)
		expect(clientAddress('::1', '2001:db8::5', trust)).toBe('2001:db8::5')
	})

	it('understands IPv6 ranges', () => {
		const trust = createProxyTrust('fd00::/8')
		expect(clientAddress('fd12::1', '2001:db8::5, fd12::2', trust)).toBe('2001:db8::5')
		expect(trust('2001:db8::1')).toBe(false)
	})

	it('drops hops that are not addresses', () => {
		const trust = createProxyTrust('127.0.0.1')
		expect(clientAddress('127.0.0.1', '203.0.113.9, unknown, <script>', trust)).toBe('203.0.113.9')
	})

	it('falls back to the first hop when every hop is a trusted proxy', () => {
		const trust = createProxyTrust('10.0.0.0/8')
		expect(clientAddress('10.0.0.1', '10.0.0.5, 10.0.0.6', trust)).toBe('10.0.0.5')
	})

	it('trusts nobody for non-addresses', () => {
		const trust = createProxyTrust('127.0.0.1')
		expect(trust('localhost')).toBe(false)
		expect(trust('')).toBe(false)
	})

	it('refuses a TRUST_PROXY entry that is not an address, in French', () => {
		expect(() => createProxyTrust('127.0.0.1, proxy.local')).toThrow(
			'TRUST_PROXY\u00a0: «\u00a0proxy.local\u00a0» n’est pas une adresse IP ni un réseau CIDR',
		)
	})
})
