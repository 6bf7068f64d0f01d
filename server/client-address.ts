import net from 'node:net'
import { getT } from '../app/platform/i18n.server.ts'

/**
 * Which peer may tell us the real client address. TRUST_PROXY lists addresses or CIDR ranges
 * ("127.0.0.1", "10.0.0.0/8", "::1"), or "loopback". Unset: nobody; X-Forwarded-For is ignored.
 */
export function createProxyTrust(spec: string | undefined): (address: string) => boolean {
	const entries = (spec ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean)
	if (entries.length === 0) return () => false
	const list = new net.BlockList()
	for (const entry of entries) {
		if (entry === 'loopback') {
			list.addSubnet('127.0.0.0', 8, 'ipv4')
			list.addAddress('::1', 'ipv6')
			continue
		}
		const [address, prefix] = entry.split('/') as [string, string | undefined]
		const family = net.isIPv6(address) ? 'ipv6' : 'ipv4'
		if (!net.isIP(address)) throw new Error(getT()('ops.env.trustProxy', { entry }))
		if (prefix === undefined) list.addAddress(address, family)
		else list.addSubnet(address, Number(prefix), family)
	}
	return (address) => {
		const plain = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address
		return net.isIP(plain) ? list.check(plain, net.isIPv6(plain) ? 'ipv6' : 'ipv4') : false
	}
}

/**
 * The client's address: the socket's, or — only when the socket is a trusted proxy — the nearest
 * address in X-Forwarded-For that is not itself a trusted proxy. A client can prepend anything it
 * likes to that header, so it is read from the right.
 */
export function clientAddress(
	socketAddress: string | undefined,
	forwardedFor: string | string[] | undefined,
	isTrusted: (address: string) => boolean,
): string {
	const peer = normalize(socketAddress ?? '')
	if (!peer || !isTrusted(peer) || !forwardedFor) return peer || '0.0.0.0'
	const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
		.split(',')
		.map((s) => normalize(s.trim()))
		.filter((s) => net.isIP(s))
	for (let i = hops.length - 1; i >= 0; i--) {
		const hop = hops[i]!
		if (!isTrusted(hop)) return hop
	}
	return hops[0] ?? peer
}

function normalize(address: string): string {
	return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address
}
