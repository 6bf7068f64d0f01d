import { randomUUID } from 'node:crypto'
import { createCookie, redirect, type Cookie } from 'react-router'
import { getPlatform } from './platform.server.ts'

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

/*
 * The cookie is signed with the site's auth secret (another site, or a script on a sibling
 * subdomain, cannot plant one), and Secure whenever the site is served over https.
 */
let cookie: Promise<Cookie> | undefined
function flashCookie(): Promise<Cookie> {
	cookie ??= (async () => {
		const { auth, env } = await getPlatform()
		const { secret } = await auth.$context
		return createCookie('flash', {
			path: '/',
			httpOnly: true,
			sameSite: 'lax',
			maxAge: 60,
			secure: env.SITE_URL.startsWith('https://'),
			secrets: [secret],
		})
	})().catch((error: unknown) => {
		cookie = undefined
		throw error
	})
	return cookie
}

export async function flashHeader(flash: Omit<Flash, 'id'>): Promise<string> {
	return (await flashCookie()).serialize({ ...flash, id: randomUUID() } satisfies Flash)
}

export async function redirectWithFlash(url: string, flash: Omit<Flash, 'id'>, init: { headers?: Headers } = {}) {
	const headers = new Headers(init.headers)
	headers.append('Set-Cookie', await flashHeader(flash))
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
	const flashCookieOf = await flashCookie()
	// An unsigned or forged value parses to null: no message, and the cookie is cleared.
	const value = await flashCookieOf.parse(header).catch(() => null)
	const clear = await flashCookieOf.serialize('', { maxAge: 0 })
	return { flash: isFlash(value) ? value : null, clear }
}
