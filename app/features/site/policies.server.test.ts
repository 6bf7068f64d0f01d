import { describe, expect, it } from 'vitest'
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS } from '#app/features/accounts/device-cookie.server.ts'
import { RETENTION } from '#app/features/accounts/housekeeping.server.ts'
import { RULES } from '#app/platform/rate-limit.server.ts'
import { readPolicy } from './policies.server.ts'

describe('the policies', () => {
	it('fill every figure from the code that enforces it', () => {
		for (const name of ['privacy', 'cookies'] as const) {
			const { html } = readPolicy(name, 'https://groupe.example')
			expect(html, name).not.toMatch(/\{\{\w+\}\}/)
		}
		const privacy = readPolicy('privacy', 'https://groupe.example').html
		expect(privacy).toContain('La mesure d’audience, sans cookie')
		expect(privacy).toContain(`${RETENTION.pageViewMonths} mois, puis les compteurs sont effacés`)
		expect(privacy).toContain(`effacés ${Math.round(RETENTION.contactMessageDays / 30.4)} mois après sa`)
		expect(privacy).toContain(`${RULES.contactByAddress.points}\u00a0messages par ${RULES.contactByAddress.durationSeconds / 60} minutes`)
		expect(privacy).toContain(
			`${RULES.mailsByRecipient.points}\u00a0e-mails par heure (${RULES.mailsByRecipientDaily.points}\u00a0par jour) à une même adresse`,
		)
		expect(RULES.mailsByRecipient.durationSeconds).toBe(3600)
		expect(RULES.mailsByRecipientDaily.durationSeconds).toBe(24 * 3600)
		const cookies = readPolicy('cookies', 'https://groupe.example').html
		expect(cookies).toContain('aucun cookie')
		expect(cookies).toContain(`<code>${DEVICE_COOKIE}</code>`)
		expect(cookies).toContain(`${DEVICE_COOKIE_DAYS} jours, renouvelé à chaque connexion`)
	})
})
