/** What the site holds and shows of a member: the answer of getCurrentUserData / GET /api/me. */
export interface Profile {
	id: string
	name: string
	email: string
	emailVerified: boolean
	image: string | null
	city: string | null
	role: 'admin' | 'user'
	createdAt: string
}

/** The identity the auth layer knows (what a session says about who is signed in). */
export interface AuthUser {
	id: string
	name: string
	email: string
	emailVerified: boolean
	image: string | null
	role: 'admin' | 'user'
}
