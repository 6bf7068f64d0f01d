import { hmac, sameSecret } from './random-token.server.ts'

/*
 * Values the server hands a browser and must recognise later as its own (a form's hidden field, a
 * cookie): the payload, a dot, and an HMAC-SHA256 of the payload under the site's secret. `purpose`
 * keeps one use's value from being accepted by another.
 */

const mac = (secret: string, purpose: string, payload: string) => hmac(secret, `${purpose}\n${payload}`)

export function signValue(secret: string, purpose: string, payload: string): string {
	return `${payload}.${mac(secret, purpose, payload)}`
}

/** The payload of a value this server signed for `purpose`, or null for anything else. */
export function readSignedValue(secret: string, purpose: string, signed: string | null | undefined): string | null {
	if (!signed || signed.length > 1000) return null
	const dot = signed.lastIndexOf('.')
	if (dot <= 0) return null
	const payload = signed.slice(0, dot)
	return sameSecret(signed.slice(dot + 1), mac(secret, purpose, payload)) ? payload : null
}
