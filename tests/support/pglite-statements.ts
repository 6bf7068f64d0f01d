import type { PGlite } from '@electric-sql/pglite'

/**
 * Calls `seen` with every statement the site sends an embedded database (its `query`, `exec` and
 * `transaction` methods, wrapped on this instance only): `query insert into …`, or `transaction
 * (callback)`. Returns the way to put the methods back.
 */
export function watchStatements(pglite: PGlite, seen: (statement: string) => void): () => void {
	const names = ['query', 'exec', 'transaction'] as const
	for (const name of names) {
		const original = pglite[name].bind(pglite) as (...args: unknown[]) => unknown
		Object.defineProperty(pglite, name, {
			configurable: true,
			value: (...args: unknown[]) => {
				seen(`${name} ${typeof args[0] === 'string' ? args[0] : '(callback)'}`)
				return original(...args)
			},
		})
	}
	return () => {
		for (const name of names) delete (pglite as unknown as Record<string, unknown>)[name]
	}
}
