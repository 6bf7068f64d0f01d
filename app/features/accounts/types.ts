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

/** One way to sign in to an account (password, Google…), as the settings list them. */
export interface SignInMethod {
	/** Better Auth's id of the account row (what unlinking names). */
	id: string
	providerId: string
	name: string
	linkedAt: string
}

/** A signed-in device, as the settings list them. */
export interface ActiveSession {
	id: string
	createdAt: string
	lastActiveAt: string
	device: string | null
	/** A phone or a tablet (iOS, Android), for the icon. */
	mobile: boolean
	ipAddress: string | null
	current: boolean
}
