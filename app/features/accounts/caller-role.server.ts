import { getSessionUser } from './session.server.ts'

/**
 * Who sent these headers, as the server's body gate needs it (server/body-gate.ts): an admin, a
 * signed-in member, or nobody known. Only the session cookie is read, as for any page (the same
 * cache, the same checks); the request's body is still unread in the socket.
 */
export async function callerRole(headers: Headers): Promise<'admin' | 'member' | null> {
	const user = await getSessionUser(new Request('http://localhost/', { headers }))
	if (!user) return null
	return user.role === 'admin' ? 'admin' : 'member'
}
