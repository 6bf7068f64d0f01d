/*
 * How a town's name is compared: accents, case, hyphens and apostrophes folded, so that « saint
 * etienne », « St-Étienne » and « SAINT-ÉTIENNE » are one key. The same function sorts the town file
 * at build time (scripts/build-towns.ts) and folds what a visitor types, so both always agree.
 */

const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ı: 'i' }

/** « St-Étienne » → « saint etienne ». */
export function foldTownName(text: string): string {
	const folded = text
		.normalize('NFD')
		.replace(/\p{M}+/gu, '')
		.toLowerCase()
		.replace(/[œæßøłđı]/g, (letter) => LIGATURES[letter] ?? letter)
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim()
	// « St », « Ste » at the start of a French name stand for « Saint », « Sainte ».
	return folded.replace(/^st(e?) /, 'saint$1 ')
}
