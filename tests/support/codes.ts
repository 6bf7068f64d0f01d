import type { Db } from '#app/platform/db/client.server.ts'
import { user } from '#app/platform/db/schema.ts'
import { insertCodes } from '#app/features/codes/batches.server.ts'
import { createCampaign } from '#app/features/codes/campaigns.server.ts'
import type { CampaignValues } from '#app/features/codes/forms.ts'
import { randomCodes } from '#app/features/codes/generate.server.ts'
import { codeBatch } from '#app/platform/db/schema.ts'
import { randomBytes } from 'node:crypto'

/** A campaign with one batch of `count` fresh codes (stored directly, as the job would). */
export async function campaignWithCodes(db: Db, count: number, values: Partial<CampaignValues> = {}) {
	const campaignId = await createCampaign(
		db,
		{
			name: 'Vinyle « Nuits blanches »',
			description: '',
			message: 'Merci ! Voici **l’album** en haute qualité.',
			links: [{ label: 'Les paroles', url: 'https://exemple.fr/paroles' }],
			startsAt: null,
			endsAt: null,
			usesPerCode: 1,
			status: 'active',
			...values,
		},
		null,
	)
	const batchId = randomBytes(12).toString('base64url')
	await db.insert(codeBatch).values({ id: batchId, campaignId, kind: 'generated', requested: count, created: count, status: 'done' })
	const codes = randomCodes(count)
	await insertCodes(db, codes, { campaignId, batchId, maxUses: values.usesPerCode ?? 1 })
	return { campaignId, batchId, codes }
}

/** `count` members inserted directly (no password: they only need an id). */
export async function members(db: Db, count: number, prefix = 'membre'): Promise<string[]> {
	const rows = Array.from({ length: count }, (_, i) => ({
		id: `${prefix}-${i}-${randomBytes(4).toString('hex')}`,
		name: `Membre ${i}`,
		email: `${prefix}-${i}-${randomBytes(4).toString('hex')}@exemple.fr`,
		emailVerified: true,
	}))
	for (let i = 0; i < rows.length; i += 500) await db.insert(user).values(rows.slice(i, i + 500))
	return rows.map((r) => r.id)
}
