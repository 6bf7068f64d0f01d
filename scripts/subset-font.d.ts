// subset-font ships no types; the call scripts/font-subsets.ts makes.
declare module 'subset-font' {
	function subsetFont(
		font: Buffer,
		text: string,
		options: {
			targetFormat: 'woff2' | 'woff' | 'sfnt'
			variationAxes?: Record<string, number | { min: number; max: number; default?: number }>
		},
	): Promise<Buffer>
	export default subsetFont
}
