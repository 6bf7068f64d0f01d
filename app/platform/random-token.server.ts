import { createHash, createHmac, randomFillSync, timingSafeEqual } from 'node:crypto'

/*
 * The one home of random ids and tokens, of what the database keeps of a token (its hash), and of
 * comparing secrets without telling, by the time it takes, how much of a guess was right.
 *
 * Random bytes come without a call into the system's generator each time: `randomBytes(16)` costs a
 * few microseconds of fixed overhead, some 3 % of a signed-in page's CPU for a request's id and CSP
 * nonce. The bytes come from one pool filled by the same cryptographic generator, 4 kB at a time;
 * each byte is handed out once and the pool is refilled whole when it runs out. Node's own
 * `randomUUID()` works the same way.
 */

const POOL_BYTES = 4_096
const pool = Buffer.alloc(POOL_BYTES)
let used = POOL_BYTES

/** `bytes` fresh random bytes (1 to 256), as base64url (or base64, or hex) text. */
export function randomToken(bytes: number, encoding: 'base64url' | 'base64' | 'hex' = 'base64url'): string {
	if (!Number.isInteger(bytes) || bytes < 1 || bytes > 256) throw new RangeError(`randomToken: ${bytes} bytes`)
	if (used + bytes > POOL_BYTES) {
		randomFillSync(pool)
		used = 0
	}
	const token = pool.toString(encoding, used, used + bytes)
	used += bytes
	return token
}

/** A record's id: 16 URL-safe characters (96 bits). */
export function newId(): string {
	return randomToken(12)
}

/** A shorter id, for what a shared link names (an event, a setlist, a song, a message): 12 URL-safe characters (72 bits). */
export function newShortId(): string {
	return randomToken(9)
}

/** A secret: an e-mailed link's token, a signing key (256 bits, 43 URL-safe characters). */
export function newSecret(): string {
	return randomToken(32)
}

/**
 * What the database keeps of a token: its SHA-256. A token is 256 random bits, so a plain hash is
 * enough (no salt, no slow hash: nothing to guess). Each stored column keeps the encoding it was
 * written with, so that links already sent still work: base64url by default, hex for the newsletter's
 * confirmation links (newsletter_subscriber.confirm_token_hash).
 */
export function hashToken(token: string, encoding: 'base64url' | 'hex' = 'base64url'): string {
	return createHash('sha256').update(token, 'utf8').digest(encoding)
}

/** A token for a link, and its hash for the database. */
export function newLinkToken(): { token: string; hash: string } {
	const token = newSecret()
	return { token, hash: hashToken(token) }
}

/** HMAC-SHA256 of a message under a key, as base64url: what signed links and values carry. */
export function hmac(key: string | Buffer, message: string): string {
	return createHmac('sha256', key).update(message, 'utf8').digest('base64url')
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/**
 * Whether a secret someone gave (a token, a signature) is the expected one, in constant time. Both
 * sides are hashed first and their digests compared with `timingSafeEqual`: the comparison takes as
 * long whatever the given value's length, so that no timing tells how long the expected one is (a
 * length check before `timingSafeEqual` returns early on a mismatch). An empty expected value
 * matches nothing.
 */
export function sameSecret(given: string, expected: string): boolean {
	const same = timingSafeEqual(digest(given), digest(expected))
	return same && expected.length > 0
}
