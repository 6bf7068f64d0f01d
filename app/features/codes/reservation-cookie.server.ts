import { createCookie } from 'react-router'
import { getEnv } from '#app/platform/env.server.ts'
import { CODE_RETENTION } from './rules.ts'

/*
 * The reservations a browser made while signed out, kept in a cookie that only /redeem receives
 * (the public pages stay cookie-less and cached): set twice, for Path=/redeem (the form without
 * JavaScript) and Path=/redeem.data (the same form sent by the hydrated page), since a cookie's
 * path never matches another file name. When the same person, signed in
 * since, types the code again, /redeem recognises their reservation and offers to add it instead
 * of saying the code is used. A token is a secret of its own (unguessable, hashed in the
 * database): a forged cookie can only name reservations its author already holds.
 */

/** The most reservations one browser keeps a note of (newest first). */
const MAX_TOKENS = 5
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/

const PATHS = ['/redeem', '/redeem.data'] as const

function reservationCookie(path: (typeof PATHS)[number] = '/redeem') {
	return createCookie('code_reservations', {
		path,
		httpOnly: true,
		sameSite: 'lax',
		maxAge: CODE_RETENTION.reservationHours * 3600,
		secure: getEnv().SITE_URL.startsWith('https://'),
	})
}

/** The reservation tokens this browser holds (none when the cookie is missing or malformed). */
export async function reservationTokens(request: Request): Promise<string[]> {
	const value: unknown = await reservationCookie().parse(request.headers.get('Cookie'))
	if (!Array.isArray(value)) return []
	return value.filter((token): token is string => typeof token === 'string' && TOKEN.test(token)).slice(0, MAX_TOKENS)
}

/** The Set-Cookie headers that add a new reservation to the ones this browser holds. */
export async function rememberReservation(request: Request, token: string): Promise<string[]> {
	const tokens = [token, ...(await reservationTokens(request)).filter((t) => t !== token)].slice(0, MAX_TOKENS)
	return Promise.all(PATHS.map((path) => reservationCookie(path).serialize(tokens)))
}
