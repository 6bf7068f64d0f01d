import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { codeDownload, user } from '#app/platform/db/schema.ts'
import { addCampaignFile } from '#app/features/codes/campaigns.server.ts'
import * as home from '#app/routes/dashboard/home.tsx'
import * as download from '#app/routes/dashboard/download.ts'
import * as redeem from '#app/routes/public/redeem.tsx'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { campaignWithCodes } from '../support/codes.ts'
import { formPost, get, outcome, routeArgs, SITE_URL } from '../support/requests.ts'
import { startTestS3, type TestS3 } from '../support/s3.ts'

/*
 * « Mes contenus » with the files in an S3 bucket (the in-process test server, which checks the
 * signature of presigned links): the member who redeemed is sent to a short presigned link of the
 * bucket, which serves the file and its ranges; anyone else gets no link at all.
 */
const kind = databaseKind()
const PASSWORD = 'cheval agrafe pile correcte'
let s3: TestS3
let env: TestPlatform
const db = () => env.platform.database.db

beforeAll(async () => {
	s3 = await startTestS3()
	env = await startTestPlatform({ env: s3.env })
})
afterAll(async () => {
	await env?.stop()
	await s3?.close()
})

async function member() {
	const email = `fan-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name: 'Camille Fan', email, password: PASSWORD })
	const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
	return { id: row!.id, cookie }
}

const redeemAs = async (typed: string, cookie: string) =>
	outcome(await redeem.action(routeArgs(formPost('/redeem', { code: typed }, { cookie }), '/redeem')))

async function openLink(href: string, cookie: string) {
	const url = new URL(href, SITE_URL)
	return (await download.loader(
		routeArgs(get(href, { cookie }), '/dashboard/contenus/:fileId', { fileId: url.pathname.split('/').pop()! }),
	)) as Response
}

describe(`downloads from S3 on ${kind}`, () => {
	it('sends the member who redeemed to a presigned link of the bucket, and nobody else', async () => {
		expect(env.platform.storage.kind).toBe('s3')
		const made = await campaignWithCodes(db(), 2)
		const bytes = new TextEncoder().encode('ID3 la face B, en entier. '.repeat(400))
		const key = `codes/${made.campaignId.toLowerCase().replace(/[^a-z0-9]/g, '')}/face-b.mp3`
		await env.platform.storage.put(key, bytes, { contentType: 'audio/mpeg' })
		const fileId = await addCampaignFile(db(), {
			campaignId: made.campaignId,
			storageKey: key,
			name: 'Face B.mp3',
			size: bytes.length,
			contentType: 'audio/mpeg',
		})

		const owner = await member()
		expect((await redeemAs(made.codes[0]!, owner.cookie)).status).toBe(302)
		const page = await home.loader(routeArgs(get('/dashboard', { cookie: owner.cookie }), '/dashboard'))
		const href = page.contents[0]!.files.find((f) => f.href?.includes(fileId))!.href!

		// The member: our link answers with a redirect to the bucket, signed and short-lived.
		const answer = await openLink(href, owner.cookie)
		expect(answer.status).toBe(302)
		expect(answer.headers.get('cache-control')).toBe('no-store')
		const presigned = new URL(answer.headers.get('location')!)
		expect(presigned.origin).toBe(s3.endpoint)
		expect(presigned.searchParams.get('X-Amz-Signature')).toBeTruthy()
		expect(Number(presigned.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(60)
		const whole = await fetch(presigned)
		expect(whole.status).toBe(200)
		expect(whole.headers.get('content-disposition')).toContain('Face%20B.mp3')
		expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes)
		// The bucket resumes a download itself.
		const part = await fetch(presigned, { headers: { range: 'bytes=100-199' } })
		expect(part.status).toBe(206)
		expect((await part.arrayBuffer()).byteLength).toBe(100)
		// Counted once, for this member.
		expect(await db().select().from(codeDownload).where(eq(codeDownload.userId, owner.id))).toHaveLength(1)

		// A presigned link altered by hand (another file of the bucket) is refused by the bucket.
		const altered = new URL(presigned)
		altered.pathname = altered.pathname.replace('face-b.mp3', 'face-a.mp3')
		expect((await fetch(altered)).status).toBe(403)

		// A member who redeemed nothing, with the owner's link: refused, no bucket link handed out.
		const stranger = await member()
		const refused = await openLink(href, stranger.cookie)
		expect(refused.status).toBe(403)
		expect(refused.headers.get('location')).toBeNull()
		expect(await refused.text()).not.toContain(s3.endpoint)
		// Nor one who redeemed a code of another campaign.
		const other = await campaignWithCodes(db(), 1)
		const holder = await member()
		expect((await redeemAs(other.codes[0]!, holder.cookie)).status).toBe(302)
		const holderRefused = await openLink(href, holder.cookie)
		expect(holderRefused.status).toBe(403)
		expect(holderRefused.headers.get('location')).toBeNull()
		expect(await db().select().from(codeDownload).where(eq(codeDownload.fileId, fileId))).toHaveLength(1)
	})
})
