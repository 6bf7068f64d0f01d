import { createCookie, type Cookie } from 'react-router'
import { getPlatform } from '#app/platform/platform.server.ts'
import { hmac, randomToken, sameSecret } from '#app/platform/random-token.server.ts'

/*
 * The « known device » cookie (OWASP's device cookies against account lockout): set at every
 * successful password sign-in, signed with the site's secret, and tied to the account by a MAC of
 * its address (the address itself is not in it). A sign-in that presents a valid one for the address
 * typed counts against that device's own budget (RULES.signInByDevice) instead of the account's, so
 * that strangers guessing a password from anywhere lock themselves out, never the owner's devices.
 * Its path is /auth: the public pages stay cookie-less (their cache answers only those).
 */
export const DEVICE_COOKIE = 'device'
export const DEVICE_COOKIE_DAYS = 180

interface DeviceValue {
	/** This device's own name for the per-device budget (random). */
	id: string
	/** Which account it was set for: a MAC of the address, so the cookie never tells it. */
	account: string
}

let cookie: Promise<{ cookie: Cookie; secret: string }> | undefined
function deviceCookie() {
	cookie ??= (async () => {
		const { auth, env } = await getPlatform()
		const { secret } = await auth.$context
		return {
			secret,
			cookie: createCookie(DEVICE_COOKIE, {
				path: '/auth',
				httpOnly: true,
				sameSite: 'lax',
				maxAge: DEVICE_COOKIE_DAYS * 24 * 3600,
				secure: env.SITE_URL.startsWith('https://'),
				secrets: [secret],
			}),
		}
	})().catch((error: unknown) => {
		cookie = undefined
		throw error
	})
	return cookie
}

function accountTag(secret: string, email: string): string {
	return hmac(secret, `known-device\n${email.trim().toLowerCase()}`).slice(0, 32)
}

/** The device's id when the request carries a valid device cookie set for this address; null otherwise. */
export async function knownDevice(request: Request, email: string): Promise<string | null> {
	const header = request.headers.get('cookie')
	if (!header?.includes(`${DEVICE_COOKIE}=`)) return null
	const { cookie: jar, secret } = await deviceCookie()
	const value = (await jar.parse(header).catch(() => null)) as Partial<DeviceValue> | null
	if (!value || typeof value.id !== 'string' || typeof value.account !== 'string') return null
	return sameSecret(value.account, accountTag(secret, email)) ? value.id : null
}

/** The Set-Cookie of a successful sign-in: the same device keeps its id, now for this account. */
export async function deviceCookieHeader(email: string, knownId: string | null): Promise<string> {
	const { cookie: jar, secret } = await deviceCookie()
	const value: DeviceValue = { id: knownId ?? randomToken(16, 'hex'), account: accountTag(secret, email) }
	return jar.serialize(value)
}
