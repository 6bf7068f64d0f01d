import { and, eq, inArray } from 'drizzle-orm'
import { data } from 'react-router'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { TOWN_CHOICE_FIELD, TOWN_FIELD } from '#app/features/towns/rules.ts'
import { readTownInput } from '#app/features/towns/town-input.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { newsletterSubscriber } from '#app/platform/db/schema.ts'
import type { Town } from '#app/features/towns/towns.server.ts'
import { normaliseEmail } from './subscribers.server.tsx'
import { townColumns } from './town-columns.ts'

/*
 * A subscriber's town (features/towns): chosen at sign-up, changed or removed from the link in every
 * newsletter or from a member's settings. Only what the town list gives is stored (its id, label and
 * coordinates), never what a form said the coordinates were.
 */

/** From the link in a newsletter: the holder of the token sets or removes their town. False for an unknown token. */
export async function setTownByToken(db: Db, token: string, town: Town | null): Promise<boolean> {
	const rows = await db
		.update(newsletterSubscriber)
		.set(townColumns(town))
		.where(eq(newsletterSubscriber.unsubscribeToken, token))
		.returning({ id: newsletterSubscriber.id })
	return rows.length > 0
}

/**
 * A member's town, on the subscriber record of their account's address (the one their newsletter
 * toggle shows). Without such a record there is nowhere to keep it: false.
 */
export async function setMemberTown(db: Db, email: string, town: Town | null): Promise<boolean> {
	const rows = await db
		.update(newsletterSubscriber)
		.set(townColumns(town))
		.where(
			and(
				eq(newsletterSubscriber.email, normaliseEmail(email)),
				inArray(newsletterSubscriber.status, ['active', 'pending', 'unsubscribed', 'bounced']),
			),
		)
		.returning({ id: newsletterSubscriber.id })
	return rows.length > 0
}

/**
 * The settings' town form (intent `town`): save (`townIntent=save`) or remove it, then back to the
 * settings with a message; a town not understood comes back next to the field, as typed.
 */
export async function memberTownAction(user: { id: string; email: string }, formData: FormData) {
	const { database, limits } = await getPlatform()
	const back = '/dashboard/settings#ville'
	const limited = await limits.consume('settingsByAccount', user.id)
	if (!limited.ok) return redirectWithFlash(back, { type: 'error', key: 'newsletter.flash.tooMany' })
	const typed = String(formData.get(TOWN_CHOICE_FIELD) || formData.get(TOWN_FIELD) || '').slice(0, 200)
	if (formData.get('townIntent') === 'remove') {
		await setMemberTown(database.db, user.email, null)
		return redirectWithFlash(back, { type: 'success', key: 'newsletter.flash.townRemoved' })
	}
	const town = readTownInput(formData)
	if (town.kind !== 'town') {
		const problem = town.kind === 'invalid' ? town : { message: getT()('newsletter.town.empty'), choices: [] }
		return data(
			{ intent: 'town' as const, townProblem: { message: problem.message, choices: problem.choices }, typedTown: typed },
			{ status: 400 },
		)
	}
	if (!(await setMemberTown(database.db, user.email, town.town))) {
		return data(
			{
				intent: 'town' as const,
				townProblem: { message: getT()('newsletter.setting.town.needsSubscription'), choices: [] },
				typedTown: typed,
			},
			{ status: 400 },
		)
	}
	return redirectWithFlash(back, { type: 'success', key: 'newsletter.flash.townSaved' })
}
