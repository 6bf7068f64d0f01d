// autocannon ships no types; the little of its API the bench uses.
declare module 'autocannon' {
	interface Options {
		url: string
		connections?: number
		duration?: number
		pipelining?: number
		/** Requests each connection sends in turn (their paths against `url`). */
		requests?: { method?: string; path: string }[]
	}
	interface Instance extends PromiseLike<unknown> {
		on(event: 'response', listener: (client: object, statusCode: number, bytes: number, ms: number) => void): this
	}
	function autocannon(options: Options): Instance
	export default autocannon
}
