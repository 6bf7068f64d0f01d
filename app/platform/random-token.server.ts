import { randomFillSync } from 'node:crypto'

/*
 * Random tokens for every request (its id, the CSP nonce of a rendered page) without a call into
 * the system's generator each time: `randomBytes(16)` costs a few microseconds of fixed overhead,
 * some 3 % of a signed-in page's CPU for the two of them. The bytes come from one pool filled by
 * the same cryptographic generator, 4 kB at a time; each byte is handed out once and the pool is
 * refilled whole when it runs out. Node's own `randomUUID()` works the same way.
 */

const POOL_BYTES = 4_096
const pool = Buffer.alloc(POOL_BYTES)
let used = POOL_BYTES

/** `bytes` fresh random bytes (1 to 256), as base64url (or base64) text. */
export function randomToken(bytes: number, encoding: 'base64url' | 'base64' = 'base64url'): string {
	if (!Number.isInteger(bytes) || bytes < 1 || bytes > 256) throw new RangeError(`randomToken: ${bytes} bytes`)
	if (used + bytes > POOL_BYTES) {
		randomFillSync(pool)
		used = 0
	}
	const token = pool.toString(encoding, used, used + bytes)
	used += bytes
	return token
}
