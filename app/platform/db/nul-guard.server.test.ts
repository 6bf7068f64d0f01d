import { describe, expect, it } from 'vitest'
import { getT } from '../i18n.server.ts'
import { nulGuard } from './nul-guard.server.ts'

describe('the database layer’s NUL check', () => {
	it('refuses a statement with a NUL byte in any text parameter with a 400 and the French reason', () => {
		const reason = getT()('errors.form.unsafeText')
		for (const params of [['Concert\u0000'], [1, ['a', 'b\u0000c']]]) {
			let refusal: unknown
			try {
				nulGuard.logQuery('insert into t values ($1)', params)
			} catch (error) {
				refusal = error
			}
			expect(refusal).toMatchObject({ init: { status: 400 }, data: { error: reason } })
		}
	})

	it('lets every other statement through', () => {
		expect(() => nulGuard.logQuery('select $1, $2, $3', ['Nuits blanches\n\t« ok »', 42, null])).not.toThrow()
	})
})
