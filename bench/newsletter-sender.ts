/*
 * The sending side of bench/newsletter.ts, in a process of its own (so that its memory is measured
 * alone). `seed N`: opens the database (migrations), writes N active subscribers, exits.
 * `send`: opens the platform as the server does, says it is idle, then sends one campaign to every
 * active subscriber with the newsletter's own sender and prints how long it took.
 */
import { sql } from 'drizzle-orm'
import { saveCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { campaignProgress, runCampaignSlice } from '#app/features/newsletter/sender.server.ts'
import { newsletterCampaign } from '#app/platform/db/schema.ts'
import { closePlatform, getPlatform } from '#app/platform/platform.server.ts'

const [mode, count] = process.argv.slice(2)
const platform = await getPlatform()
const db = platform.database.db
const say = (message: object) => console.log(JSON.stringify(message))

if (mode === 'seed') {
	const n = Number(count)
	for (let from = 0; from < n; from += 20_000) {
		await db.execute(sql`
			insert into newsletter_subscriber (id, email, status, source, unsubscribe_token, consent_at, policy_version)
			select gen_random_uuid()::text, 'fan' || i || '@exemple.test', 'active', 'import',
				replace(replace(encode(decode(md5(random()::text || i) || md5(i::text || random()::text), 'hex'), 'base64'), '+', '-'), '/', '_'),
				now(), 'bench'
			from generate_series(${from}::int, ${Math.min(n, from + 20_000) - 1}::int) as i`)
	}
	say({ seeded: n })
} else {
	// Idle: the platform open, its pools and caches warm, nothing to do.
	await new Promise((resolve) => setTimeout(resolve, 3000))
	say({ phase: 'idle' })
	await new Promise((resolve) => setTimeout(resolve, 2000))
	const campaign = await saveCampaign(db, {
		subject: 'Tournée d’automne : trois nouvelles dates',
		preheader: 'Lyon, Nantes et Lille',
		body: '## Nous revenons sur la route\n\nAprès un été en studio, **trois nouvelles dates** :\n\n- 14 novembre : Lyon\n- 21 novembre : Nantes\n- 28 novembre : Lille\n\nÀ très vite !',
	})
	await db
		.update(newsletterCampaign)
		.set({ status: 'scheduled', scheduledAt: new Date() })
		.where(sql`id = ${campaign!.id}`)
	say({ phase: 'sending' })
	const started = performance.now()
	const { database, env, logger, realtime, jobs } = platform
	let outcome
	do outcome = await runCampaignSlice({ db: database.db, env, logger, realtime, jobs }, campaign!.id)
	while (outcome.state === 'continue')
	const ms = performance.now() - started
	say({ phase: 'done', outcome: outcome.state, ms, progress: await campaignProgress(db, campaign!.id) })
}
await closePlatform()
