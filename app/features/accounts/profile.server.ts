import { eq } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { user } from '#app/platform/db/schema.ts'
import { textField } from '#app/platform/text-field.ts'
import { cityField } from './forms.ts'
import { NAME_MAX } from './rules.ts'
import type { Profile } from './types.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'

export type { Profile }

/** Fields a member may set, and the ones they may clear. A role, an id or an e-mail is not among them. */
const settable = {
	name: textField()
		.trim()
		.min(1, { error: lazyT('api.me.nameEmpty') })
		.max(NAME_MAX, { error: lazyT('auth.validation.nameMax', { max: NAME_MAX }) }),
	city: cityField,
} as const
const clearable = ['city', 'image'] as const

type Settable = keyof typeof settable
type Clearable = (typeof clearable)[number]

export type ProfileUpdate =
	{ ok: true; values: Partial<Record<Settable, string>>; clear: Clearable[] } | { ok: false; field: string; reason: string }

/** Checks an updateUserData payload: `{ values: {...}, valuesToClear: [...] }`. */
export function parseProfileUpdate(body: unknown): ProfileUpdate {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return { ok: false, field: '(body)', reason: getT()('api.me.notObject') }
	}
	for (const key of Object.keys(body)) {
		if (key !== 'values' && key !== 'valuesToClear') {
			return { ok: false, field: key, reason: getT()('api.me.unknownField', { field: key }) }
		}
	}
	const { values = {}, valuesToClear = [] } = body as { values?: unknown; valuesToClear?: unknown }
	if (typeof values !== 'object' || values === null || Array.isArray(values)) {
		return { ok: false, field: 'values', reason: getT()('api.me.valuesNotObject') }
	}
	if (!Array.isArray(valuesToClear)) {
		return { ok: false, field: 'valuesToClear', reason: getT()('api.me.clearNotList') }
	}
	const parsed: Partial<Record<Settable, string>> = {}
	for (const [field, value] of Object.entries(values)) {
		// hasOwn, not `in`: "constructor" or "__proto__" are in every object.
		if (!Object.hasOwn(settable, field)) {
			return { ok: false, field, reason: getT()('api.me.notSettable', { field }) }
		}
		const result = settable[field as Settable].safeParse(value)
		if (!result.success) {
			const reason = typeof value === 'string' ? result.error.issues[0]!.message : getT()('api.me.notText', { field })
			return { ok: false, field, reason }
		}
		parsed[field as Settable] = result.data
	}
	const clear: Clearable[] = []
	for (const field of valuesToClear) {
		if (typeof field !== 'string' || !(clearable as readonly string[]).includes(field)) {
			return { ok: false, field: String(field), reason: getT()('api.me.notClearable', { field: String(field) }) }
		}
		if (field in parsed) {
			return { ok: false, field, reason: getT()('api.me.setAndClear', { field }) }
		}
		clear.push(field as Clearable)
	}
	return { ok: true, values: parsed, clear }
}

export async function getProfile(db: Db, userId: string): Promise<Profile | null> {
	const [row] = await db.select().from(user).where(eq(user.id, userId))
	if (!row) return null
	return {
		id: row.id,
		name: row.name,
		email: row.email,
		emailVerified: row.emailVerified,
		image: row.image,
		city: row.city,
		role: row.role === 'admin' ? 'admin' : 'user',
		createdAt: row.createdAt.toISOString(),
	}
}

export async function updateProfile(db: Db, userId: string, update: Extract<ProfileUpdate, { ok: true }>): Promise<Profile | null> {
	const changes: Partial<typeof user.$inferInsert> = { ...update.values }
	if (changes.city === '') changes.city = null
	for (const field of update.clear) changes[field] = null
	if (Object.keys(changes).length > 0) {
		await db.update(user).set(changes).where(eq(user.id, userId))
	}
	return getProfile(db, userId)
}
