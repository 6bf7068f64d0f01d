import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildTownFile } from '../../../scripts/build-towns.ts'
import { boundingBox, distanceKm } from './distance.ts'
import { foldTownName } from './fold.ts'
import type * as TownsModule from './towns.server.ts'

/*
 * The town list built from the real packages (as `npm run build` does), then searched: prefixes
 * folded, namesakes told apart, forged or unknown names refused, distances right.
 */
let towns: typeof TownsModule
beforeAll(async () => {
	const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'towns-')), 'towns.bin')
	fs.writeFileSync(file, buildTownFile())
	process.env.TOWNS_FILE = file
	towns = await import('./towns.server.ts')
}, 60_000)

describe('folding a town’s name', () => {
	it('ignores accents, case, hyphens, apostrophes and the « St » abbreviation', () => {
		expect(foldTownName('Saint-Étienne')).toBe('saint etienne')
		expect(foldTownName('  ST-ÉTIENNE ')).toBe('saint etienne')
		expect(foldTownName('Ste Foy-lès-Lyon')).toBe('sainte foy les lyon')
		expect(foldTownName('L’Haÿ-les-Roses')).toBe('l hay les roses')
		expect(foldTownName('Œuilly')).toBe('oeuilly')
	})
})

describe('the town list', () => {
	it('suggests towns by prefix, France and the most populous first, with a label that tells namesakes apart', () => {
		expect(towns.suggestTowns('lyo')[0]?.label).toBe('Lyon (Rhône)')
		expect(towns.suggestTowns('st etie')[0]?.label).toBe('Saint-Étienne (Loire)')
		const saintDenis = towns.suggestTowns('saint-denis').map((town) => town.label)
		expect(saintDenis).toContain('Saint-Denis (Seine-Saint-Denis)')
		expect(saintDenis).toContain('Saint-Denis (La Réunion)')
		expect(towns.suggestTowns('l')).toEqual([])
		expect(towns.suggestTowns('zzzzq')).toEqual([])
	})

	it('answers a suggestion in well under 50 ms, even for a two-letter prefix', () => {
		towns.suggestTowns('sa')
		const started = performance.now()
		for (const query of ['sa', 'ma', 'bre', 'new y', 'lo']) towns.suggestTowns(query)
		expect((performance.now() - started) / 5).toBeLessThan(50)
	})

	it('resolves a label, or a bare name that one town carries, and asks which among namesakes', () => {
		const lyon = towns.resolveTown('lyon')
		expect(lyon).toMatchObject({ status: 'found', town: { label: 'Lyon (Rhône)', countryCode: 'FR' } })
		if (lyon.status === 'found') expect(distanceKm(lyon.town, { latitude: 45.76, longitude: 4.84 })).toBeLessThan(3)
		// The Breton port, not the larger Brest of Belarus: a French site's fans are mostly French.
		expect(towns.resolveTown('Brest')).toMatchObject({ status: 'found', town: { label: 'Brest (Finistère)' } })
		const ambiguous = towns.resolveTown('Saint-Denis')
		expect(ambiguous.status).toBe('ambiguous')
		if (ambiguous.status === 'ambiguous') {
			expect(ambiguous.choices.map((town) => town.label)).toEqual(
				expect.arrayContaining(['Saint-Denis (Seine-Saint-Denis)', 'Saint-Denis (La Réunion)']),
			)
		}
		expect(towns.resolveTown('saint-denis (la reunion)')).toMatchObject({ status: 'found', town: { countryCode: 'RE' } })
		expect(towns.resolveTown('Saint-Denis (Atlantide)').status).toBe('ambiguous')
		const misspelt = towns.resolveTown('Lyonn')
		expect(misspelt.status).toBe('unknown')
		if (misspelt.status === 'unknown') expect(misspelt.suggestions.map((town) => town.label)).toContain('Lyon (Rhône)')
		expect(towns.resolveTown('Xqzwvt').status).toBe('unknown')
	})

	it('finds a town again by its id, with the coordinates the list gives', () => {
		const found = towns.resolveTown('Brest (Finistère)')
		if (found.status !== 'found') throw new Error('Brest not found')
		expect(towns.townById(found.town.id)).toEqual(found.town)
		expect(towns.townById(-1)).toBeNull()
		const reunion = towns.resolveTown('Saint-Denis (La Réunion)')
		if (reunion.status !== 'found') throw new Error('Saint-Denis (La Réunion) not found')
		const regions = towns.regionsOfTowns([found.town.id, reunion.town.id, -1, found.town.id])
		expect(Object.fromEntries(regions)).toEqual({ [found.town.id]: 'Bretagne', [reunion.town.id]: 'La Réunion' })
	})
})

describe('distances', () => {
	const lyon = { latitude: 45.75, longitude: 4.85 }
	const brest = { latitude: 48.39, longitude: -4.49 }
	it('measures great circles', () => {
		expect(distanceKm(lyon, brest)).toBeGreaterThan(755)
		expect(distanceKm(lyon, brest)).toBeLessThan(775)
		expect(distanceKm(lyon, lyon)).toBe(0)
	})
	it('draws a box that holds the whole circle, across the 180th meridian too', () => {
		const box = boundingBox(lyon, 150)
		for (const bearing of [0, 45, 90, 135, 180, 225, 270, 315]) {
			const r = (bearing * Math.PI) / 180
			const point = {
				latitude: lyon.latitude + (149 / 111.2) * Math.cos(r),
				longitude: lyon.longitude + (149 / (111.2 * Math.cos((lyon.latitude * Math.PI) / 180))) * Math.sin(r),
			}
			if (distanceKm(lyon, point) > 150) continue
			expect(point.latitude).toBeGreaterThanOrEqual(box.minLatitude)
			expect(point.latitude).toBeLessThanOrEqual(box.maxLatitude)
			expect(point.longitude).toBeGreaterThanOrEqual(box.minLongitude)
			expect(point.longitude).toBeLessThanOrEqual(box.maxLongitude)
		}
		const fiji = boundingBox({ latitude: -17.7, longitude: 179.5 }, 200)
		expect(fiji.minLongitude).toBeGreaterThan(fiji.maxLongitude)
		expect(boundingBox({ latitude: 89.5, longitude: 0 }, 100)).toMatchObject({ minLongitude: -180, maxLongitude: 180 })
	})
})
