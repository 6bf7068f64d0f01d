import path from 'node:path'
import { z } from 'zod'

/**
 * The process environment, parsed once. Every optional service (PostgreSQL, SMTP, S3,
 * federated providers) is optional here and the site runs on its embedded defaults without it.
 */
const optionalUrl = z
	.string()
	.trim()
	.transform((v) => (v === '' ? undefined : v))
	.pipe(z.url().optional())
	.optional()

const list = z
	.string()
	.optional()
	.transform((v) =>
		(v ?? '')
			.split(',')
			.map((s) => s.trim().toLowerCase())
			.filter(Boolean),
	)

const schema = z.object({
	NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
	PORT: z.coerce.number().int().min(1).max(65535).default(3000),
	HOST: z.string().default('0.0.0.0'),
	DATA_DIR: z.string().default('./data'),
	SITE_URL: optionalUrl,
	DATABASE_URL: optionalUrl,
	AUTH_SECRET: z.string().min(32).optional(),
	ADMIN_EMAILS: list,
	TRUST_PROXY: z.string().optional(),
	LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

	BAND_NAME: z.string().trim().min(1).max(80).default('Le Groupe'),
	BAND_TAGLINE: z
		.string()
		.trim()
		.max(160)
		.default('Concerts, nouvelles et rencontres : le site officiel du groupe.'),
	BAND_LOGO_URL: z.string().trim().optional(),
	ACCENT_COLOR: z
		.string()
		.trim()
		.regex(/^#[0-9a-fA-F]{6}$/, 'ACCENT_COLOR doit être une couleur #rrggbb')
		.default('#ff5a36'),
	CONTACT_EMAIL: z.email().optional(),
	LINK_IN_BIO_URL: optionalUrl,
	SOCIAL_INSTAGRAM: optionalUrl,
	SOCIAL_FACEBOOK: optionalUrl,
	SOCIAL_YOUTUBE: optionalUrl,
	SOCIAL_TIKTOK: optionalUrl,
	SOCIAL_SPOTIFY: optionalUrl,
	SOCIAL_BANDCAMP: optionalUrl,
	SOCIAL_SOUNDCLOUD: optionalUrl,
})

export type Env = z.infer<typeof schema> & { SITE_URL: string; DATA_DIR: string }

let cached: Env | undefined

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
	const result = schema.safeParse(source)
	if (!result.success) {
		const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`)
		throw new Error(`Invalid environment:\n${lines.join('\n')}`)
	}
	const env = result.data
	return {
		...env,
		DATA_DIR: path.resolve(env.DATA_DIR),
		SITE_URL: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
	}
}

export function getEnv(): Env {
	cached ??= parseEnv()
	return cached
}
