import { createContext, redirect, type MiddlewareFunction } from 'react-router'
import { getAuth } from '#app/platform/platform.server.ts'
import { safeRedirect } from './redirect.ts'
import type { AuthUser, Profile } from './types.ts'
import { httpError } from '#app/platform/http-error.ts'
import { cachedSession, sessionCacheKey } from '#app/platform/session-cache.server.ts'

export type SessionUser = AuthUser

/*
 * The session is read once per request: the root middleware asks first and puts the answer in the
 * router context (`sessionUserContext`, for loaders that have the context at hand); the guards and
 * every other reader of the same request get the same answer from `getSessionUser`.
 */
type SessionRead = { user: SessionUser; sessionId: string; profile: Profile }
const reads = new WeakMap<Request, Promise<SessionRead | null>>()

/** The session user, as the root middleware read it for this request. */
export const sessionUserContext = createContext<SessionUser | null>(null)

/** Reads this request's session into the router context (a step of the root's middleware: app/root.tsx). */
export async function sessionMiddleware({ request, context }: Pick<Parameters<MiddlewareFunction<Response>>[0], 'request' | 'context'>) {
	context.set(sessionUserContext, await getSessionUser(request))
}

/** The signed-in user of this request, or null. Never trusts anything but the session cookie. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
	return (await readSession(request))?.user ?? null
}

/** The id of the session this request is signed in with (the settings mark « cet appareil »). */
export async function currentSessionId(request: Request): Promise<string | null> {
	return (await readSession(request))?.sessionId ?? null
}

function readSession(request: Request) {
	let read = reads.get(request)
	if (!read) {
		read = readSessionOnce(request)
		reads.set(request, read)
	}
	return read
}

/**
 * The signed-in member's profile as the session read found it (the same row of \`user\`): what the
 * root and the dashboard show, without asking the database again in the same request. A page that
 * edits the profile reads it fresh (getProfile).
 */
export async function getSessionProfile(request: Request): Promise<Profile | null> {
	return (await readSession(request))?.profile ?? null
}

async function readSessionOnce(request: Request): Promise<SessionRead | null> {
	// Most visitors carry no session cookie at all: answer without asking the database.
	const key = sessionCacheKey(request.headers.get('cookie'))
	if (!key) return null
	// The same cookie validated a moment ago is answered from memory; any revocation forgets it
	// first (the guarantee is in app/platform/session-cache.server.ts).
	return cachedSession(key, () => askBetterAuth(request))
}

async function askBetterAuth(request: Request): Promise<(SessionRead & { userId: string; expiresAt: Date }) | null> {
	const auth = await getAuth()
	const result = await auth.api.getSession({ headers: request.headers }).catch(() => null)
	if (!result) return null
	const { user, session } = result
	const sessionUser: SessionUser = {
		id: user.id,
		name: user.name,
		email: user.email,
		emailVerified: user.emailVerified,
		image: user.image ?? null,
		role: user.role === 'admin' ? 'admin' : 'user',
	}
	// Frozen: the same answer may serve the next requests of this session (session-cache.server.ts).
	Object.freeze(sessionUser)
	return Object.freeze({
		userId: user.id,
		expiresAt: new Date(session.expiresAt),
		sessionId: session.id,
		user: sessionUser,
		profile: Object.freeze({ ...sessionUser, city: user.city ?? null, createdAt: new Date(user.createdAt).toISOString() }),
	})
}

/** The page the visitor asked for: for a client-side data request, the page, not its `.data` URL. */
function currentPath(request: Request): string {
	const url = new URL(request.url)
	url.searchParams.delete('_routes')
	return url.pathname.replace(/\.data$/, '').replace(/^\/_root$/, '/') + url.search
}

/** Signed-in only: otherwise to the sign-in page, coming back here afterwards. */
export async function requireUser(request: Request): Promise<SessionUser> {
	const user = await getSessionUser(request)
	if (!user) {
		const params = new URLSearchParams({ redirectTo: currentPath(request) })
		throw redirect(`/auth/signin?${params}`)
	}
	return user
}

/** Admins only: a signed-out visitor goes to sign in, a member gets a 403 and no data. */
export async function requireAdmin(request: Request): Promise<SessionUser> {
	const user = await requireUser(request)
	if (user.role !== 'admin') throw httpError(403, { reason: 'forbidden' })
	return user
}

/** Signed-out only (sign-in, sign-up…): a signed-in visitor goes on to the dashboard. */
export async function requireAnonymous(request: Request): Promise<void> {
	const user = await getSessionUser(request)
	if (user) {
		const target = new URL(request.url).searchParams.get('redirectTo')
		throw redirect(safeRedirect(target, '/dashboard'))
	}
}
