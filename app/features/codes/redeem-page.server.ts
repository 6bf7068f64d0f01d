import { data } from 'react-router'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb, getPlatform } from '#app/platform/platform.server.ts'
import { formatWait } from '#app/platform/rate-limit.server.ts'
import { formatDate } from '#app/platform/time-zone.ts'
import { normalizeCode, TYPED_MAX_LENGTH } from './code-format.ts'
import { unlockedBy } from './contents.server.ts'
import { findCode, findReservation } from './redeem.server.ts'
import { rememberReservation, reservationTokens } from './reservation-cookie.server.ts'
import { redeemFromRequest } from './redeem-request.server.ts'
import { CODE_RETENTION } from './rules.ts'
import { RedeemSchema } from './forms.ts'

/** Each refusal's sentence, written out so that every key stays visible to the translation check. */
function outcomeMessage(outcome: 'invalid' | 'unknown' | 'expired' | 'used_up' | 'revoked' | 'paused'): string {
	const t = getT()
	const messages = {
		invalid: t('codes.redeem.outcomes.invalid'),
		unknown: t('codes.redeem.outcomes.unknown'),
		expired: t('codes.redeem.outcomes.expired'),
		used_up: t('codes.redeem.outcomes.used_up'),
		revoked: t('codes.redeem.outcomes.revoked'),
		paused: t('codes.redeem.outcomes.paused'),
	}
	return messages[outcome]
}

const STATUS: Record<string, number> = {
	invalid: 400,
	unknown: 404,
	not_yet: 403,
	paused: 403,
	expired: 410,
	used_up: 410,
	revoked: 410,
	limited: 429,
}

/**
 * A reservation this browser made while signed out for the code typed now by a signed-in member:
 * the code is theirs to add (the claim page's button), not « already used ». Only a token the
 * browser holds can match, so this tells nothing about codes; no use is taken.
 */
async function ownReservation(request: Request, typed: string): Promise<{ claim: string } | null> {
	const normalised = normalizeCode(typed)
	if (!normalised) return null
	const db = await getDb()
	for (const token of await reservationTokens(request)) {
		const reservation = await findReservation(db, token)
		if (reservation?.code === normalised) return { claim: `/auth/claim?${new URLSearchParams({ mode: 'reward', token })}` }
	}
	return null
}

/**
 * The /redeem action: parse, redeem (limits, timing and record in redeemFromRequest), then send a
 * member to the dashboard, hand a visitor their reservation, or say why not — the typed code kept.
 */
export async function redeemAction(request: Request) {
	const t = getT()
	const form = await request.formData()
	const typed = String(form.get('code') ?? '').slice(0, TYPED_MAX_LENGTH * 4)
	const parsed = RedeemSchema.safeParse({ code: form.get('code') ?? undefined })
	if (!parsed.success) {
		const error = typed.trim() ? t('codes.redeem.outcomes.invalid') : t('codes.redeem.outcomes.empty')
		return data({ typed, error, reserved: null }, { status: 400 })
	}
	const user = await getSessionUser(request)
	const yours = user ? await ownReservation(request, parsed.data.code) : null
	if (yours) return data({ typed, error: null, reserved: null, yours }, { headers: { 'Cache-Control': 'no-store' } })
	let answer
	try {
		answer = await redeemFromRequest(request, parsed.data.code, user)
	} catch (error) {
		;(await getPlatform()).logger.error({ err: error }, 'code redemption failed')
		return data({ typed, error: t('codes.redeem.outcomes.unavailable'), reserved: null }, { status: 503 })
	}
	switch (answer.outcome) {
		case 'granted':
		case 'already':
			return answer.outcome === 'granted'
				? redirectWithFlash('/dashboard#mes-contenus', { type: 'success', key: 'codes.flash.granted' })
				: redirectWithFlash('/dashboard#mes-contenus', { type: 'success', key: 'codes.flash.already' })
		case 'reserved': {
			const unlocked = await unlockedBy(await getDb(), answer.campaignId)
			const claim = `/auth/claim?${new URLSearchParams({ mode: 'reward', token: answer.token })}`
			// The browser keeps a note of it, so that once signed in, typing the code again finds it.
			const headers = new Headers({ 'Cache-Control': 'no-store' })
			for (const cookie of await rememberReservation(request, answer.token)) headers.append('Set-Cookie', cookie)
			return data(
				{
					typed,
					error: null,
					reserved: { unlocked, hours: CODE_RETENTION.reservationHours, claim },
				},
				{ headers },
			)
		}
		case 'limited':
			return data(
				{ typed, error: t('codes.redeem.outcomes.limited', { wait: formatWait(answer.retryAfterSeconds) }), reserved: null },
				{ status: 429, headers: { 'Retry-After': String(answer.retryAfterSeconds) } },
			)
		case 'not_yet': {
			const found = await findCode(await getDb(), normalizeCode(typed) ?? '')
			const startsAt = found?.campaign.startsAt
			const message = startsAt
				? t('codes.redeem.outcomes.not_yet', { date: formatDate(startsAt) })
				: t('codes.redeem.outcomes.not_yetNoDate')
			return data({ typed, error: message, reserved: null }, { status: 403 })
		}
		default:
			return data({ typed, error: outcomeMessage(answer.outcome), reserved: null }, { status: STATUS[answer.outcome] ?? 400 })
	}
}
