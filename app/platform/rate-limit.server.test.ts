import { describe, expect, it } from 'vitest'
import { CLIENT_ADDRESS_HEADER } from './auth.server.ts'
import { addressKey, clientAddressOf } from './rate-limit.server.ts'

describe('the address a per-address limit counts', () => {
	it('keeps an IPv4 address as it is', () => {
		expect(addressKey('203.0.113.7')).toBe('203.0.113.7')
	})
	it('counts every address of one IPv6 /64 as one client, however it is written', () => {
		const one = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2::a:b']
		expect(new Set(one.map(addressKey))).toEqual(new Set(['2001:db8:1:2::/64']))
		expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
		expect(addressKey('::1')).toBe('0:0:0:0::/64')
		expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64')
	})
	it('reads the header our server sets', () => {
		const request = new Request('http://x/', { headers: { [CLIENT_ADDRESS_HEADER]: '2001:db8:1:2::99' } })
		expect(clientAddressOf(request)).toBe('2001:db8:1:2::/64')
		expect(clientAddressOf(new Request('http://x/'))).toBe('unknown')
	})
})
