import { dictionary as common } from '@zxcvbn-ts/language-common'
import { dictionary as french } from '@zxcvbn-ts/language-fr'

/*
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

/** Why this password is refused (in French), or null when it is acceptable. */
export function passwordWeakness(password: string, context: { email?: string; name?: string } = {}): string | null {
	const lower = password.toLowerCase()
	const core = stripDecorations(password)
	const { commonPasswords, frenchWords } = wordLists()
	if (commonPasswords.has(lower) || commonPasswords.has(core) || frenchWords.has(core) || isRepetitive(lower)) {
		return 'Ce mot de passe est trop courant. Choisissez-en un autre, par exemple une phrase de quelques mots.'
	}
	const local = context.email?.split('@')[0]?.toLowerCase()
	if ((local && local.length >= 4 && lower.includes(local)) || (context.name && core === stripDecorations(context.name))) {
		return 'Le mot de passe ne doit pas reprendre votre nom ou votre adresse e-mail.'
	}
	return null
}
