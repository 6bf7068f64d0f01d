import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary as common } from '@zxcvbn-ts/language-common'
import { dictionary as french } from '@zxcvbn-ts/language-fr'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * Loaded on the first password checked (password-policy.server.ts), never at start: the dictionaries
 * below are a megabyte of words, decompressed when their packages are evaluated.
 *
 * NIST SP 800-63B style: length matters, composition rules do not, and passwords that are known
 * to be common are refused. "Common" here: the widely leaked passwords list, and single French
 * words, with or without digits and symbols tacked on the end, plus trivial repetitions.
 */

/** Lower case without accents, so that « Félicitations » meets the dictionary's « félicitations ». */
function fold(text: string): string {
	return text
		.toLowerCase()
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
}

// Built on the first password checked, not at start (tens of thousands of words).
let lists: { commonPasswords: Set<string>; frenchWords: Set<string> } | undefined
function wordLists() {
	lists ??= {
		commonPasswords: new Set((common['passwords-common'] as string[]).map(fold)),
		frenchWords: new Set((french['commonWords-fr'] as string[]).map(fold)),
	}
	return lists
}

function stripDecorations(password: string): string {
	return fold(password).replace(/^[\d\W_]+|[\d\W_]+$/g, '')
}

function isRepetitive(password: string): boolean {
	if (new Set(password).size <= 3) return true
	// A short motif repeated ("abcabcabcabc", "azerazerazer").
	for (let size = 1; size <= password.length / 2; size++) {
		const motif = password.slice(0, size)
		if (motif.repeat(Math.ceil(password.length / size)).slice(0, password.length) === password) return true
	}
	return false
}

/*
 * zxcvbn estimates how many guesses a password takes, from dictionaries (common and French), keyboard
 * walks (azerty and qwerty), sequences, repeats and dates; below score 3 (about 10^8 guesses) it is
 * refused. The lists above stay: they catch decorated words that zxcvbn scores a little higher.
 */
// Also built on the first password checked: ranking its dictionaries took a third of the server's
// start-up (about 0.3 s of CPU), for a check that only sign-ups and password changes need.
let zxcvbn: ZxcvbnFactory | undefined
function estimator() {
	zxcvbn ??= new ZxcvbnFactory({
		dictionary: { ...common, ...french },
		graphs: adjacencyGraphs,
	})
	return zxcvbn
}

/** Why this password is refused (in French), or null when it is acceptable. */
export function passwordWeakness(password: string, context: { email?: string; name?: string } = {}): string | null {
	const lower = password.toLowerCase()
	const core = stripDecorations(password)
	const { commonPasswords, frenchWords } = wordLists()
	if (commonPasswords.has(lower) || commonPasswords.has(core) || frenchWords.has(core) || isRepetitive(lower)) {
		return getT()('auth.password.common')
	}
	const local = context.email?.split('@')[0]?.toLowerCase()
	const personal = [local, context.name].filter((word): word is string => Boolean(word))
	if ((local && local.length >= 4 && lower.includes(local)) || (context.name && core === stripDecorations(context.name))) {
		return getT()('auth.password.personal')
	}
	if (estimator().check(password, personal).score < 3) {
		return getT()('auth.password.guessable')
	}
	return null
}
