/*
 * Demo events in a data folder, to look at the public pages (and for the end-to-end tests):
 * one show of each kind — scheduled with a cover, sold out, postponed, cancelled, abroad, past —
 * and a draft; optionally an admin account to preview the draft.
 *
 *   DATA_DIR=/tmp/events-data SITE_URL=http://localhost:3601 node_modules/.bin/tsx scripts/seed-demo.ts [--admin email:password]
 *
 * Run it BEFORE starting the server on that folder (the embedded database takes one process at a
 * time, and the folder's lock refuses a second one). It prints the ids it created, as JSON.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { user } from '#app/platform/db/schema.ts'
import { closePlatform, getPlatform } from '#app/platform/platform.server.ts'
import { avifEncoding, coverWidths, VARIANT_ENCODING } from '#app/features/media/variants.server.ts'
import { daysFrom, insertCover, insertEvent } from '../tests/support/events.ts'

const adminArg = process.argv.indexOf('--admin')
const admin = adminArg > 0 ? process.argv[adminArg + 1]?.split(':') : undefined

/** An abstract poster drawn in SVG (no font needed): bands of colour and a halftone disc. */
function posterSvg(width: number, height: number, hue: number): string {
	const dots: string[] = []
	for (let y = 0; y < height; y += 28) {
		for (let x = 0; x < width; x += 28) {
			const d = Math.hypot(x - width * 0.68, y - height * 0.42) / (width * 0.45)
			const r = Math.max(0, 11 * (1 - d))
			if (r > 0.6) dots.push(`<circle cx="${x}" cy="${y}" r="${r.toFixed(1)}" fill="hsl(${hue + 20} 95% 62%)"/>`)
		}
	}
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 18%)"/><stop offset="1" stop-color="hsl(${hue + 40} 60% 6%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<rect x="0" y="${height * 0.7}" width="${width}" height="${height * 0.06}" fill="hsl(${hue - 10} 90% 55%)" opacity="0.85"/>
<rect x="0" y="${height * 0.8}" width="${width}" height="${height * 0.02}" fill="hsl(${hue - 10} 90% 55%)" opacity="0.6"/>
${dots.join('')}
<circle cx="${width * 0.25}" cy="${height * 0.35}" r="${height * 0.18}" fill="none" stroke="hsl(${hue + 180} 80% 70%)" stroke-width="10" opacity="0.7"/>
</svg>`
}

/** A cover with real files in the local storage (DATA_DIR/files), as the upload job would leave it. */
async function demoCover(dataDir: string, db: Parameters<typeof insertCover>[0], hue: number, alt: string) {
	const id = randomUUID()
	const width = 1600
	const height = 1000
	const source = await sharp(Buffer.from(posterSvg(width, height, hue)))
		.png()
		.toBuffer()
	const cover = await insertCover(db, { id, width, height, alt, widths: coverWidths(width) })
	for (const variant of cover.variants) {
		const file = path.join(dataDir, 'files', ...variant.key.split('/'))
		fs.mkdirSync(path.dirname(file), { recursive: true })
		const resized = sharp(source).resize(variant.width, variant.height)
		const encoded =
			variant.format === 'avif'
				? resized.avif(avifEncoding(variant.width))
				: variant.format === 'webp'
					? resized.webp(VARIANT_ENCODING.webp)
					: resized.jpeg(VARIANT_ENCODING.jpeg)
		await encoded.toFile(file)
	}
	return cover.id
}

const platform = await getPlatform()
try {
	const db = platform.database.db
	const dataDir = platform.env.DATA_DIR
	const ids: Record<string, string> = {}
	ids.scheduled = await insertEvent(db, {
		title: 'Nuits fauves — la release party',
		startsAt: daysFrom(9),
		doorsAt: daysFrom(9, 19, 30),
		venueName: 'La Cigale',
		address: '120 boulevard de Rochechouart',
		postalCode: '75018',
		city: 'Paris',
		latitude: 48.88231,
		longitude: 2.34037,
		ticketUrl: 'https://billetterie.exemple.fr/nuits-fauves-paris',
		priceText: '24,50 € / 19 € (réduit)',
		coverId: await demoCover(dataDir, db, 12, 'Affiche abstraite aux tons rouges et orangés'),
		description: [
			'Le disque sort enfin : on le joue **en entier**, dans l’ordre, puis on garde les lumières allumées pour les vieilles chansons.',
			'',
			'- Première partie : *Les Voisines*',
			'- Stand de disques et t-shirts dès l’ouverture',
			'- Salle accessible en fauteuil roulant : [infos de la salle](https://www.lacigale.fr)',
		].join('\n'),
	})
	ids.soldOut = await insertEvent(db, {
		title: 'Lyon, deuxième soir',
		startsAt: daysFrom(16, 21, 0),
		venueName: 'Le Transbordeur',
		address: '3 boulevard de Stalingrad',
		postalCode: '69100',
		city: 'Villeurbanne',
		status: 'sold_out',
		ticketUrl: 'https://billetterie.exemple.fr/lyon',
		priceText: '22 €',
		coverId: await demoCover(dataDir, db, 200, 'Affiche abstraite bleue'),
	})
	ids.postponed = await insertEvent(db, {
		title: 'Nantes (nouvelle date)',
		startsAt: daysFrom(38),
		previousStartsAt: daysFrom(4),
		venueName: 'Stereolux',
		address: '4 boulevard Léon Bureau',
		postalCode: '44200',
		city: 'Nantes',
		status: 'postponed',
		ticketUrl: 'https://billetterie.exemple.fr/nantes',
		priceText: '18 €',
		description: 'Les billets achetés pour la première date restent valables.',
	})
	ids.cancelled = await insertEvent(db, {
		title: 'Festival des Terrasses',
		startsAt: daysFrom(24, 18, 0),
		venueName: 'Parc de la Citadelle',
		address: null,
		postalCode: '59000',
		city: 'Lille',
		status: 'cancelled',
		ticketUrl: 'https://billetterie.exemple.fr/terrasses',
		priceText: 'Gratuit',
	})
	ids.abroad = await insertEvent(db, {
		title: 'Bruxelles',
		startsAt: daysFrom(30),
		venueName: 'Ancienne Belgique',
		address: 'Boulevard Anspach 110',
		postalCode: '1000',
		city: 'Bruxelles',
		country: 'BE',
		ticketUrl: 'https://billetterie.exemple.fr/bruxelles',
		priceText: '21 €',
	})
	ids.past = await insertEvent(db, {
		title: 'Rennes, Antipode',
		startsAt: daysFrom(-12),
		venueName: 'L’Antipode',
		address: '75 avenue Jules Maniez',
		postalCode: '35000',
		city: 'Rennes',
		ticketUrl: 'https://billetterie.exemple.fr/rennes',
		priceText: '15 €',
		description: 'Merci Rennes ! Les photos arrivent bientôt.',
	})
	ids.draft = await insertEvent(db, {
		title: 'Date surprise (à confirmer)',
		startsAt: daysFrom(60),
		venueName: 'Le Grand Mix',
		address: '5 place Notre-Dame',
		postalCode: '59200',
		city: 'Tourcoing',
		published: false,
		publishedAt: null,
	})
	if (admin?.[0] && admin[1]) {
		await platform.auth.api.signUpEmail({ body: { name: 'Admin démo', email: admin[0], password: admin[1] } })
		await db.update(user).set({ role: 'admin', emailVerified: true }).where(eq(user.email, admin[0].toLowerCase()))
	}
	console.log(JSON.stringify(ids))
} finally {
	await closePlatform()
}
