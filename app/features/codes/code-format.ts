/*
 * What a code looks like, shared by the redemption form and the server. Codes the site makes use
 * an alphabet without look-alikes (no I, L, O, U, no 0 or 1): 30 symbols, 12 of them per code
 * (58.9 bits), shown in groups of four (`ABCD-EFGH-JKMN`). Imported codes (printed elsewhere) may
 * use any letter or digit. What a visitor types is read case-, space- and dash-insensitively.
 */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789'
export const CODE_LENGTH = 12
export const CODE_GROUP = 4
/** Bits of randomness in a generated code: log2(30) × 12. */
export const CODE_BITS = Math.log2(CODE_ALPHABET.length) * CODE_LENGTH

/** Imported codes: letters and digits only, between these lengths once normalised. */
export const IMPORTED_MIN_LENGTH = 8
export const IMPORTED_MAX_LENGTH = 32
/** What the form accepts at all (with separators): anything longer is not a code. */
export const TYPED_MAX_LENGTH = 64

/** Upper case, without spaces, dashes, dots or underscores; null when anything else remains. */
export function normalizeCode(typed: string): string | null {
	if (typeof typed !== 'string' || typed.length > TYPED_MAX_LENGTH) return null
	const bare = typed
		.normalize('NFKC')
		.toUpperCase()
		.replace(/[\s\-‐-―._]+/g, '')
	if (bare.length < IMPORTED_MIN_LENGTH || bare.length > IMPORTED_MAX_LENGTH) return null
	return /^[A-Z0-9]+$/.test(bare) ? bare : null
}

/** `ABCDEFGHJKMN` → `ABCD-EFGH-JKMN` (any length, groups of four). */
export function formatCode(normalised: string): string {
	return normalised.match(new RegExp(`.{1,${CODE_GROUP}}`, 'g'))?.join('-') ?? normalised
}
