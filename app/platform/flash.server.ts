import { randomUUID } from 'node:crypto'
import { createCookie, redirect } from 'react-router'

/**
 * A one-time message that rides a cookie across a redirect (« Lien envoyé »). It carries a
 * translation key, never free text, so a forged cookie can only show one of our own sentences.
 */
export interface Flash {
	id: string
	type: 'success' | 'error' | 'info'
	/** A key of translation.json; its `.title` (and optional `.body`) are shown. */
	key: string
	values?: Record<string, string>
}

const cookie = createCookie('flash', { path: '/', httpOnly: true, sameSite: 'lax', maxAge: 60 })

export async function flashHeader(flash: Omit<Flash, 'id'>, secure: boolean): Promise<string> {
	return cookie.serialize({ ...flash, id: randomUUID() } satisfies Flash, { secure })
}

export async function redirectWithFlash(url: string, flash: Omit<Flash, 'id'>, init: { headers?: Headers; secure?: boolean } = {}) {
	const headers = new Headers(init.headers)
	headers.append('Set-Cookie', await flashHeader(flash, init.secure ?? false))
	return redirect(url, { headers })
}

function isFlash(value: unknown): value is Flash {
	if (typeof value !== 'object' || value === null) return false
	const v = value as Record<string, unknown>
	return (
		typeof v.id === 'string' &&
		(v.type === 'success' || v.type === 'error' || v.type === 'info') &&
		typeof v.key === 'string' &&
		/^[a-zA-Z0-9.]{1,100}$/.test(v.key)
	)
}

/** Reads and consumes the flash of this request: the message, and the header that clears it. */
export async function readFlash(request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
	const header = request.headers.get('Cookie')
	if (!header?.includes('flash=')) return { flash: null, clear: null }
	const value = await cookie.parse(header).catch(() => null)
	const clear = await cookie.serialize('', { maxAge: 0 })
	return { flash: isFlash(value) ? value : null, clear }
}
