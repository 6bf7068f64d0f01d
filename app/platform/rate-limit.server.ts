import { isIPv6 } from 'node:net'
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible'
import type { Db } from './db/client.server.ts'
import { rateLimit } from './db/schema.ts'
import { CLIENT_ADDRESS_HEADER } from './auth.server.ts'
import { getT } from './i18n.server.ts'

/**
 * Limits on everything a bot could repeat, kept in the database so that every instance shares them.
 * Each rule counts attempts per key (a client address or an account) over a window.
 */
export const RULES = {
	signInByAddress: { points: 30, durationSeconds: 15 * 60 },
	signInByAccount: { points: 8, durationSeconds: 15 * 60 },
	// A device the account signed in from before (its device cookie) counts on its own, not on the account.
	signInByDevice: { points: 8, durationSeconds: 15 * 60 },
	signUpByAddress: { points: 6, durationSeconds: 60 * 60 },
	resetByAddress: { points: 10, durationSeconds: 60 * 60 },
	resetByAccount: { points: 3, durationSeconds: 60 * 60 },
	resendByAccount: { points: 3, durationSeconds: 60 * 60 },
	claimByAddress: { points: 30, durationSeconds: 15 * 60 },
	settingsByAccount: { points: 30, durationSeconds: 15 * 60 },
	// Failed code redemptions, in two tiers: a short lockout first, then a day-long one.
	redeemByAddress: { points: 10, durationSeconds: 15 * 60 },
	redeemByAddressDaily: { points: 30, durationSeconds: 24 * 60 * 60 },
	redeemByAccount: { points: 10, durationSeconds: 15 * 60 },
	redeemByAccountDaily: { points: 30, durationSeconds: 24 * 60 * 60 },
	// A contact message per client address: a person writes a few, a bot is stopped at the sixth.
	contactByAddress: { points: 5, durationSeconds: 15 * 60 },
	// Replies to contact messages, per admin account.
	contactReplyByAccount: { points: 60, durationSeconds: 60 * 60 },
	/** Newsletter sign-ups and unsubscribe-link requests from one client address. */
	newsletterByAddress: { points: 10, durationSeconds: 60 * 60 },
	/**
	 * Mails a visitor makes the site send to one address, whatever the path (sign-up, reset, newsletter,
	 * unsubscribe link…): counted where every mail is sent (app/platform/mail/mailer.server.ts).
	 */
	mailsByRecipient: { points: 5, durationSeconds: 60 * 60 },
	mailsByRecipientDaily: { points: 10, durationSeconds: 24 * 60 * 60 },
} as const satisfies Record<string, { points: number; durationSeconds: number }>

export type RuleName = keyof typeof RULES

export type LimitResult = { ok: true } | { ok: false; retryAfterSeconds: number }

export interface RateLimits {
	/** Counts one attempt; past the limit, says how long to wait. */
	consume(rule: RuleName, key: string): Promise<LimitResult>
	/** Forgets a key's attempts (e.g. a successful sign-in clears the account's failures). */
	reset(rule: RuleName, key: string): Promise<void>
	/** Gives one point back (an attempt that turned out fine, for rules that count failures only). */
	refund(rule: RuleName, key: string): Promise<void>
}

export function createRateLimits(db: Db): RateLimits {
	const limiters = new Map<RuleName, RateLimiterDrizzle>()
	const limiter = (rule: RuleName) => {
		let existing = limiters.get(rule)
		if (!existing) {
			existing = new RateLimiterDrizzle({
				storeClient: db,
				schema: rateLimit,
				keyPrefix: rule,
				points: RULES[rule].points,
				duration: RULES[rule].durationSeconds,
				// Expired rows are purged by the housekeeping job.
				clearExpiredByTimeout: false,
			})
			limiters.set(rule, existing)
		}
		return existing
	}
	return {
		async consume(rule, key) {
			try {
				await limiter(rule).consume(key.toLowerCase().slice(0, 300))
				return { ok: true }
			} catch (rejection) {
				if (rejection instanceof RateLimiterRes) {
					return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) }
				}
				throw rejection
			}
		},
		async reset(rule, key) {
			await limiter(rule).delete(key.toLowerCase().slice(0, 300))
		},
		async refund(rule, key) {
			await limiter(rule).reward(key.toLowerCase().slice(0, 300), 1)
		},
	}
}

/**
 * The client's address as our HTTP server established it (never a client-supplied header), as the
 * per-address limits count it: an IPv6 address by its /64, since one subscriber usually gets a
 * whole /64 and could otherwise take a fresh address for every attempt.
 */
export function clientAddressOf(request: Request): string {
	return addressKey(request.headers.get(CLIENT_ADDRESS_HEADER) ?? 'unknown')
}

/** An IPv4 address as is; an IPv6 address as its /64 network (« 2001:db8:1:2::/64 »). */
export function addressKey(address: string): string {
	if (!isIPv6(address)) return address
	const [head = '', tail = ''] = address.toLowerCase().split('::') as [string, string?]
	const left = head ? head.split(':') : []
	const right = address.includes('::') && tail ? tail.split(':') : []
	// An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups; only the first four matter here.
	const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left
	return `${groups
		.slice(0, 4)
		.map((group) => Number.parseInt(group, 16).toString(16))
		.join(':')}::/64`
}

/** « dans 12 minutes », « dans moins d’une minute », « dans 2 heures » */
export function formatWait(seconds: number): string {
	const t = getT()
	if (seconds < 60) return t('limits.wait.underAMinute')
	const minutes = Math.ceil(seconds / 60)
	if (minutes < 60) return t('limits.wait.minutes', { count: minutes })
	return t('limits.wait.hours', { count: Math.ceil(minutes / 60) })
}
