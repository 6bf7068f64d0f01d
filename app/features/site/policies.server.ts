import fs from 'node:fs'
import path from 'node:path'
import { DEVICE_COOKIE_DAYS } from '#app/features/accounts/device-cookie.server.ts'
import { RETENTION } from '#app/features/accounts/housekeeping.server.ts'
import { CONFIRM_TTL_HOURS, DELIVERY_RECORD_DAYS, PENDING_PURGE_DAYS } from '#app/features/newsletter/rules.ts'
import { RESET_PASSWORD_TTL_SECONDS, SESSION_TTL_SECONDS, VERIFY_EMAIL_TTL_SECONDS } from '#app/platform/auth.server.ts'
import { RULES } from '#app/platform/rate-limit.server.ts'
import { CODE_RETENTION } from '#app/features/codes/rules.ts'
import { COORDINATE_DECIMALS, DEFAULT_RADIUS_KM, TOWN_MIN_POPULATION } from '#app/features/towns/rules.ts'
import { getBand } from './band.server.ts'
import { renderMarkdown } from './markdown.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

export const POLICIES = ['privacy', 'cookies'] as const
export type PolicyName = (typeof POLICIES)[number]

/**
 * The policy texts live in content/policies/*.md. Their figures (how long each thing is kept) come
 * from the code that enforces them, so the text cannot drift from what the site really does.
 */
function values(siteUrl: string): Record<string, string> {
	const band = getBand()
	const longestLimitMinutes = Math.max(...Object.values(RULES).map((rule) => rule.durationSeconds)) / 60
	return {
		band: band.name,
		site: siteUrl.replace(/^https?:\/\//, ''),
		// How to reach the band: /contact always (its messages are kept in the admin even without an
		// address to mail them to), and the band's address too when one is configured.
		writeTo: band.contactEmail ? getT()('policies.writeTo.email', { email: band.contactEmail }) : getT()('policies.writeTo.form'),
		sessionDays: String(SESSION_TTL_SECONDS / 86400),
		deviceDays: String(DEVICE_COOKIE_DAYS),
		verifyHours: String(VERIFY_EMAIL_TTL_SECONDS / 3600),
		resetHours: String(RESET_PASSWORD_TTL_SECONDS / 3600),
		mailBodyDays: String(RETENTION.mailBodyDays),
		mailRecordMonths: String(Math.round(RETENTION.mailRecordDays / 30.4)),
		limitWindow: longestLimitMinutes >= 120 ? `${Math.round(longestLimitMinutes / 60)} heures` : `${longestLimitMinutes} minutes`,
		codeReservationHours: String(CODE_RETENTION.reservationHours),
		codeAttemptDays: String(CODE_RETENTION.attemptDays),
		codeDownloadDays: String(CODE_RETENTION.downloadDays),
		contactMonths: String(Math.round(RETENTION.contactMessageDays / 30.4)),
		contactLimit: String(RULES.contactByAddress.points),
		contactLimitMinutes: String(RULES.contactByAddress.durationSeconds / 60),
		mailCap: String(RULES.mailsByRecipient.points),
		mailCapDaily: String(RULES.mailsByRecipientDaily.points),
		audienceMonths: String(RETENTION.pageViewMonths),
		newsletterPendingDays: String(PENDING_PURGE_DAYS),
		newsletterConfirmHours: String(CONFIRM_TTL_HOURS),
		newsletterDeliveryMonths: String(Math.round(DELIVERY_RECORD_DAYS / 30.4)),
		// A degree of latitude is some 111 km: two decimals keep a town to about a kilometre.
		townPrecisionKm: String(Math.max(1, Math.round(111 / 10 ** COORDINATE_DECIMALS))),
		townMinPopulation: new Intl.NumberFormat('fr-FR').format(TOWN_MIN_POPULATION),
		announceRadiusKm: String(DEFAULT_RADIUS_KM),
	}
}

const cache = new Map<PolicyName, { title: string; html: string }>()

export function readPolicy(name: PolicyName, siteUrl: string): { title: string; html: string } {
	const cached = cache.get(name)
	if (cached) return cached
	const source = fs.readFileSync(path.resolve('content/policies', `${name}.md`), 'utf8')
	const vars = values(siteUrl)
	const filled = source.replace(/\{\{(\w+)\}\}/g, (match, key: string) => vars[key] ?? match)
	const title = /^# (.+)$/m.exec(filled)?.[1] ?? name
	const policy = { title, html: renderMarkdown(filled.replace(/^# .+\n/m, '')) }
	cache.set(name, policy)
	return policy
}
