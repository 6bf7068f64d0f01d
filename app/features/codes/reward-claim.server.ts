import { redirect } from 'react-router'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { unlockedBy, type Unlocked } from './contents.server.ts'
import { announceRedemption, claimReservation, findReservation } from './redeem.server.ts'

/*
 * /auth/claim?mode=reward&token=…: the landing of a signed-out visitor's reserved code. The page
 * shows what the code unlocks; signed in, one button adds it to the account (a GET changes
 * nothing); signed out, sign-in and sign-up come back here afterwards.
 */

export type RewardClaimData = { state: 'form'; reward: Unlocked; here: string } | { state: 'invalid'; reward: null; here: string }

export async function rewardClaimLoader(request: Request, token: string | null): Promise<RewardClaimData> {
	const url = new URL(request.url)
	const here = url.pathname + url.search
	if (!token) return { state: 'invalid', reward: null, here }
	const db = await getDb()
	const reservation = await findReservation(db, token)
	const reward = reservation ? await unlockedBy(db, reservation.campaignId) : null
	return reward ? { state: 'form', reward, here } : { state: 'invalid', reward: null, here }
}

/** The claim itself: the member gets the reserved use, once. Null when the link is no good. */
export async function rewardClaimAction(request: Request, token: string | null): Promise<Response | null> {
	if (!token) return null
	const user = await getSessionUser(request)
	if (!user) {
		const url = new URL(request.url)
		throw redirect(`/auth/signin?${new URLSearchParams({ redirectTo: url.pathname + url.search })}`)
	}
	const result = await claimReservation(await getDb(), token, user.id)
	if (result.outcome === 'invalid') return null
	if (result.outcome === 'granted') await announceRedemption()
	return result.outcome === 'granted'
		? redirectWithFlash('/dashboard#mes-contenus', { type: 'success', key: 'codes.flash.granted' })
		: redirectWithFlash('/dashboard#mes-contenus', { type: 'success', key: 'codes.flash.already' })
}
