import path from 'node:path'
import { z } from 'zod'
import { getT } from './i18n.server.ts'

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
	SMTP_URL: z
		.string()
		.regex(/^smtps?:\/\//, { error: () => getT()('ops.env.smtpUrl') })
		.optional(),
	/** The sender of every mail, e.g. `"Le Groupe" <bonjour@exemple.fr>`. Default: the band's name at the site's host. */
	MAIL_FROM: z.string().trim().max(200).optional(),
	/** How many mails per second the SMTP relay accepts (the newsletter sender paces itself to it). */
	SMTP_RATE_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(10),
	/** How many SMTP connections the newsletter sender keeps open at once. */
	NEWSLETTER_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(4),
	/** On SIGTERM, how long /readyz answers 503 while new connections are still taken (a load balancer's time to notice). */
	SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(120).default(3),
	/** On SIGTERM, how long requests in flight may take to finish once new connections are refused. */
	SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(10),
	GOOGLE_CLIENT_ID: z.string().optional(),
	GOOGLE_CLIENT_SECRET: z.string().optional(),
	APPLE_CLIENT_ID: z.string().optional(),
	APPLE_CLIENT_SECRET: z.string().optional(),
	APPLE_APP_BUNDLE_IDENTIFIER: z.string().optional(),
	FACEBOOK_CLIENT_ID: z.string().optional(),
	FACEBOOK_CLIENT_SECRET: z.string().optional(),
	OIDC_ISSUER: optionalUrl,
	OIDC_CLIENT_ID: z.string().optional(),
	OIDC_CLIENT_SECRET: z.string().optional(),
	OIDC_NAME: z.string().trim().max(40).default('OpenID Connect'),
	/** Where the automatic backups go (embedded database: always, default DATA_DIR/backups; PostgreSQL: only when set). */
	BACKUP_DIR: z.string().trim().optional(),
	/** The bearer token that opens /metrics (Prometheus); unset: /metrics answers 404. */
	METRICS_TOKEN: z
		.string()
		.trim()
		.min(24, { error: () => getT()('ops.env.metricsToken', { min: 24 }) })
		.optional(),
	/**
	 * Tests only (kept when NODE_ENV=test, dropped otherwise): the least time a sign-up answer takes,
	 * in ms, instead of SIGN_UP_RESPONSE_FLOOR_MS. The tests that only need members set it to 0.
	 */
	TEST_SIGN_UP_FLOOR_MS: z.coerce.number().int().min(0).max(60_000).optional(),
	/**
	 * Tests only (kept when NODE_ENV=test, dropped otherwise): the scrypt cost N of password hashes,
	 * a power of two, instead of Better Auth's 16,384 (app/platform/test-password-hash.server.ts).
	 */
	TEST_PASSWORD_HASH_COST: z.coerce
		.number()
		.int()
		.min(2)
		.max(1 << 20)
		.refine((n) => (n & (n - 1)) === 0, { error: () => getT()('ops.env.hashCost') })
		.optional(),
	/**
	 * Tests only (kept when NODE_ENV=test, dropped otherwise): the wait before an image's rendition
	 * job is tried again, in seconds, instead of MEDIA_QUEUE_OPTIONS' 15 (doubling at each attempt all
	 * the same); the media worker then also looks for a retry come due every second, not every 30 s.
	 */
	TEST_MEDIA_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(600).optional(),
	LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
	/** Unset: readable lines in a terminal, one JSON object per line otherwise (a service manager, a container, a file). */
	LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
	/** S3-compatible storage instead of DATA_DIR/files: chosen when S3_BUCKET is set (platform/storage). */
	S3_ENDPOINT: optionalUrl,
	S3_BUCKET: z.string().trim().min(3).max(63).optional(),
	S3_REGION: z.string().trim().min(1).default('us-east-1'),
	S3_ACCESS_KEY_ID: z.string().trim().optional(),
	S3_SECRET_ACCESS_KEY: z.string().trim().optional(),

	BAND_NAME: z.string().trim().min(1).max(80).default(getT()('site.defaults.bandName')),
	BAND_TAGLINE: z.string().trim().max(160).default(getT()('site.defaults.tagline')),
	BAND_LOGO_URL: z.string().trim().optional(),
	ACCENT_COLOR: z
		.string()
		.trim()
		.regex(/^#[0-9a-fA-F]{6}$/, { error: () => getT()('ops.env.accentColor') })
		.default('#ff5a36'),
	CONTACT_EMAIL: z.email().optional(),
	/** The mailbox named as the mailto alternative in every newsletter's List-Unsubscribe; default CONTACT_EMAIL. */
	NEWSLETTER_UNSUBSCRIBE_EMAIL: z.email().optional(),
	/** Cookieless audience figures (page views per day, page and referring site): `off` stops counting. */
	PAGE_VIEWS: z.enum(['on', 'off']).default('on'),
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
	// An empty variable (`SITE_URL=` in .env) means "not set".
	const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ''))
	const result = schema.safeParse(present)
	if (!result.success) {
		const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`)
		throw new Error(`Invalid environment:\n${lines.join('\n')}`)
	}
	const env = result.data
	return {
		...env,
		TEST_SIGN_UP_FLOOR_MS: env.NODE_ENV === 'test' ? env.TEST_SIGN_UP_FLOOR_MS : undefined,
		TEST_PASSWORD_HASH_COST: env.NODE_ENV === 'test' ? env.TEST_PASSWORD_HASH_COST : undefined,
		TEST_MEDIA_RETRY_DELAY_SECONDS: env.NODE_ENV === 'test' ? env.TEST_MEDIA_RETRY_DELAY_SECONDS : undefined,
		DATA_DIR: path.resolve(env.DATA_DIR),
		SITE_URL: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
	}
}

export function getEnv(): Env {
	cached ??= parseEnv()
	return cached
}
