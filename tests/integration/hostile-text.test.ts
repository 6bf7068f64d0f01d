import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { Window } from 'happy-dom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import routes from '#app/routes.ts'
import { openDatabase } from '#app/platform/db/client.server.ts'
import { contactMessage, newsletterCampaign } from '#app/platform/db/schema.ts'
import { createSetlist } from '#app/features/setlist/setlists.server.ts'
import { createSong } from '#app/features/setlist/songs.server.ts'
import { campaignWithCodes, members } from '../support/codes.ts'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { daysFrom, insertEvent, newId } from '../support/events.ts'
import { ensureBuild, setUpFirstAdmin, startSiteServer, TEST_BUILD_DIR, type SiteServer } from '../support/site-server.ts'

/*
 * Every action of the route table (app/routes.ts) against hostile text, through the real HTTP
 * server: each form the site's pages really render (found by reading their HTML, so that a new
 * field or a new form is walked without anyone listing it here) is posted once per field with a NUL
 * byte, a bidirectional override (U+202E) and a 1 MB value in that field, the other fields keeping
 * the page's own values or an ordinary one; as a plain form post and as React Router's `.data`
 * request; anonymous and as the admin; plus the JSON API's bodies. Never a 500 nor a 503: a
 * refusal (4xx) or the form again with a French message next to the field. A visible text field
 * never takes a NUL or an override in: the answer is never the success redirect.
 */
const kind = databaseKind()
const ROOT = path.resolve(import.meta.dirname, '..', '..')
const ADMIN = { name: 'Camille Admin', email: 'camille.admin@exemple.fr', password: 'un long mot de passe du groupe 2026' }
const NUL = '\u0000'
const OVERRIDE = '\u202e'
const MEGABYTE = 1024 * 1024

interface RouteEntry {
	path: string
	file: string
	hasAction: boolean
	isPage: boolean
}

interface RouteConfigEntry {
	path?: string
	index?: boolean
	file: string
	children?: RouteConfigEntry[]
}

/** Every route of app/routes.ts with its full path and whether its module exports an action. */
function routeTable(): RouteEntry[] {
	const out: RouteEntry[] = []
	const walk = (entries: RouteConfigEntry[], parent: string) => {
		for (const entry of entries) {
			const full = entry.path ? `${parent.replace(/\/$/, '')}/${entry.path}` : parent || '/'
			const source = fs.readFileSync(path.join(ROOT, 'app', entry.file), 'utf8')
			out.push({
				path: full || '/',
				file: entry.file,
				hasAction: /export\s+(async\s+)?(function|const)\s+action\b/.test(source),
				isPage: /export\s+default\s/.test(source),
			})
			if (entry.children) walk(entry.children, full === '/' ? '' : full)
		}
	}
	walk(routes as RouteConfigEntry[], '')
	return out
}

let database: TestDatabase
let server: SiteServer
let adminCookie = ''
const ids: Record<string, string> = {}
let forwarded = 0

/** A path of the table with its parameters set to rows seeded here, or null when it cannot be made. */
function concretePaths(route: RouteEntry): string[] {
	if (route.path.includes('*')) return [route.path.replace('*', 'walker')]
	const campaign = route.path.includes('newsletter') ? ids.newsletterCampaign! : ids.codeCampaign!
	const filled = route.path
		.replace(/\/:[a-zA-Z]+\?/g, '')
		.replace(':eventId', ids.event!)
		.replace(':songId', ids.song!)
		.replace(':setlistId', ids.setlist!)
		.replace(':messageId', ids.message!)
		.replace(':campaignId', campaign)
		.replace(':batchId', ids.batch!)
		.replace(':code', ids.code!)
		.replace(':fileId', 'walker')
	// The editors of a thing not stored yet are screens of their own.
	const fresh = /\/(events|songs|codes|campaigns)\/:[a-zA-Z]+$/.test(route.path) ? [route.path.replace(/:[a-zA-Z]+$/, 'new')] : []
	return [filled, ...fresh]
}

interface FormVariant {
	/** Where the form posts (path and query). */
	action: string
	fields: [string, string][]
	/**
	 * The fields a person types into (visible text inputs and text areas) that this submission reads:
	 * none for a button marked `formnovalidate` (« Supprimer »: the fields do not matter to it).
	 */
	typed: Set<string>
	from: string
}

const ORDINARY: Record<string, string> = {
	email: 'visiteur@exemple.fr',
	url: 'https://exemple.fr/page',
	number: '3',
	date: '2031-05-16',
	'datetime-local': '2031-05-16T20:30',
	time: '20:30',
	tel: '0601020304',
}

/** An ordinary value for an empty field, so that a refusal is the hostile field's doing. */
function ordinaryValue(element: { tagName: string; getAttribute(name: string): string | null }): string {
	const type = (element.getAttribute('type') ?? 'text').toLowerCase()
	if (element.tagName === 'TEXTAREA') return 'Un message tout à fait ordinaire, assez long pour passer.'
	if (type === 'email' || element.getAttribute('autocomplete') === 'email') return ORDINARY.email!
	if (ORDINARY[type]) return ORDINARY[type]!
	const max = Number(element.getAttribute('maxlength') ?? '0')
	const text = 'Texte ordinaire'
	return max > 0 ? text.slice(0, max) : text
}

/** The POST forms of a page's HTML, one variant per named submit button. */
function formsOf(html: string, pageUrl: string): FormVariant[] {
	const window = new Window({ url: server.origin + pageUrl })
	window.document.write(html)
	const variants: FormVariant[] = []
	for (const form of window.document.querySelectorAll('form')) {
		if ((form.getAttribute('method') ?? 'get').toLowerCase() !== 'post') continue
		const action = new URL(form.getAttribute('action') ?? pageUrl, server.origin + pageUrl)
		if (action.origin !== server.origin) continue
		const fields: [string, string][] = []
		const typed = new Set<string>()
		const submitters: { field: [string, string]; ignoresFields: boolean }[] = []
		for (const element of form.querySelectorAll('input, select, textarea, button')) {
			const name = element.getAttribute('name')
			if (!name) continue
			const type = (element.getAttribute('type') ?? (element.tagName === 'BUTTON' ? 'submit' : 'text')).toLowerCase()
			if (type === 'submit' || type === 'image') {
				submitters.push({ field: [name, element.getAttribute('value') ?? ''], ignoresFields: element.hasAttribute('formnovalidate') })
				continue
			}
			if (type === 'file' || type === 'button' || type === 'reset') continue
			if ((type === 'checkbox' || type === 'radio') && !element.hasAttribute('checked')) {
				// A required box is ticked and a group with no choice gets its first, as a person would.
				const choose =
					type === 'checkbox'
						? element.hasAttribute('required')
						: !form.querySelector(`input[type="radio"][name="${name}"][checked]`) && !fields.some(([field]) => field === name)
				if (choose) fields.push([name, element.getAttribute('value') ?? 'on'])
				continue
			}
			let value: string
			if (element.tagName === 'SELECT') {
				// The page's choice, or the first real one when it shows a placeholder (« Choisissez… »).
				const options = [...element.querySelectorAll('option')].map((option) => ({
					value: option.getAttribute('value') ?? option.textContent ?? '',
					selected: option.hasAttribute('selected'),
				}))
				value = (options.find((option) => option.selected && option.value) ?? options.find((option) => option.value))?.value ?? ''
			} else if (element.tagName === 'TEXTAREA') {
				value = element.textContent ?? ''
			} else {
				value = element.getAttribute('value') ?? ''
			}
			const hidden = type === 'hidden' || element.closest('[hidden], [aria-hidden="true"]') !== null
			if (!value && type !== 'password' && !hidden) value = ordinaryValue(element)
			if (!hidden && type !== 'password' && (element.tagName === 'TEXTAREA' || ['text', 'email', 'search', 'url', 'tel'].includes(type))) {
				typed.add(name)
			}
			fields.push([name, value])
		}
		const target = action.pathname + action.search
		if (submitters.length === 0) variants.push({ action: target, fields, typed, from: pageUrl })
		for (const { field, ignoresFields } of submitters) {
			variants.push({ action: target, fields: [...fields, field], typed: ignoresFields ? new Set() : typed, from: pageUrl })
		}
	}
	window.close()
	return variants
}

/** A distinct client address per request (TRUST_PROXY is the loopback): the rate limits never answer first. */
function clientHeaders(cookie: string): Record<string, string> {
	forwarded += 1
	return {
		origin: server.origin,
		'x-forwarded-for': `10.${(forwarded >> 16) & 255}.${(forwarded >> 8) & 255}.${forwarded & 255}`,
		...(cookie ? { cookie } : {}),
	}
}

async function getPage(url: string, cookie: string) {
	const response = await fetch(server.origin + url, {
		headers: clientHeaders(cookie),
		redirect: 'manual',
		signal: AbortSignal.timeout(30_000),
	})
	const type = response.headers.get('content-type') ?? ''
	// Live streams (server-sent events) never end: only pages are read.
	if (!type.includes('text/html')) {
		await response.body?.cancel()
		return { status: response.status, text: '', type }
	}
	return { status: response.status, text: await response.text(), type }
}

/**
 * One POST on a connection of its own: a refusal sent before a large body is read may leave the
 * connection unusable, and the next request on it would wait for nothing.
 */
function post(action: string, fields: [string, string][], cookie: string) {
	const body = Buffer.from(new URLSearchParams(fields).toString())
	return new Promise<{ status: number; text: string; location: string }>((resolve) => {
		const request = http.request(
			server.origin + action,
			{
				method: 'POST',
				agent: false,
				timeout: 20_000,
				headers: { ...clientHeaders(cookie), 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length },
			},
			(response) => {
				let text = ''
				response.setEncoding('utf8')
				response.on('data', (chunk: string) => (text = (text + chunk).slice(0, 4096)))
				response.on('end', () => resolve({ status: response.statusCode ?? 0, text, location: String(response.headers.location ?? '') }))
				response.on('error', (error) => resolve({ status: 0, text: error.message, location: '' }))
			},
		)
		// No answer at all (a reset connection, a request left hanging) is a failure too.
		request.on('timeout', () => request.destroy(new Error('no answer in 20 s')))
		request.on('error', (error) => resolve({ status: 0, text: error.message, location: '' }))
		request.end(body)
	})
}

/** React Router's request for the same action (what a hydrated form sends). */
function dataUrl(action: string): string {
	const url = new URL(action, 'http://site.invalid')
	const isIndex = url.searchParams.has('index')
	url.searchParams.delete('index')
	url.pathname = url.pathname === '/' ? '/_root.data' : `${url.pathname.replace(/\/$/, '')}.data`
	if (isIndex) url.searchParams.set('index', '')
	return url.pathname + url.search.replace('index=', 'index')
}

const DESTRUCTIVE = /delete|remove|revoke|archive|unlink|signout|supprimer|pause|cancel|send/i

describe(`every action refuses NUL bytes, bidi overrides and 1 MB values on ${kind}`, () => {
	beforeAll(async () => {
		await ensureBuild()
		database = await createMigratedTestDatabase()
		// The rows the parameterised screens show, written before the server opens the database.
		const seed = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir })
		try {
			const db = seed.db
			const [author] = await members(db, 1, 'auteur')
			ids.event = await insertEvent(db, { title: 'Concert du walker', startsAt: daysFrom(20) })
			ids.song = await createSong(db, {
				title: 'Nuits blanches',
				originalArtist: null,
				duration: null,
				musicalKey: null,
				tempo: null,
				notes: '',
			} as never)
			ids.setlist = await createSetlist(db, 'Tournée d’hiver', author!)
			const codes = await campaignWithCodes(db, 2)
			ids.codeCampaign = codes.campaignId
			ids.batch = codes.batchId
			ids.code = codes.codes[0]!
			ids.message = newId()
			await db.insert(contactMessage).values({
				id: ids.message,
				name: 'Alex Visiteur',
				email: 'alex@exemple.fr',
				subject: 'autre',
				body: 'Bonjour, une question sur le prochain concert.',
			})
			ids.newsletterCampaign = newId()
			await db.insert(newsletterCampaign).values({ id: ids.newsletterCampaign, subject: 'Nouvelles de décembre', body: 'Bonjour à tous !' })
		} finally {
			await seed.close()
		}
		server = await startSiteServer({
			buildDir: TEST_BUILD_DIR,
			dataDir: database.dataDir,
			env: { DATABASE_URL: database.databaseUrl, LOG_LEVEL: 'info', TRUST_PROXY: '127.0.0.1' },
		})
		const jar = await setUpFirstAdmin(server, ADMIN)
		adminCookie = Object.entries(jar)
			.filter(([name]) => name.includes('session'))
			.map(([name, value]) => `${name}=${value}`)
			.join('; ')
	}, 300_000)

	afterAll(async () => {
		await server?.stop()
		await database?.dispose()
	})

	it('answers the JSON API’s bodies with NUL bytes, overrides and 1 MB with a 4xx and the field at fault', async () => {
		for (const body of [
			{ name: `Camille${NUL}` },
			{ name: `Camille${OVERRIDE}fdp.exe` },
			{ city: `Nantes${NUL}` },
			{ name: 'a'.repeat(MEGABYTE) },
		]) {
			const response = await fetch(`${server.origin}/api/me`, {
				method: 'PATCH',
				headers: { ...clientHeaders(adminCookie), 'content-type': 'application/json' },
				body: JSON.stringify(body),
			})
			const answer = await response.text()
			expect(response.status, answer).toBeGreaterThanOrEqual(400)
			expect(response.status, answer).toBeLessThan(500)
		}
	})

	it('answers every form field of every action with a refusal or the form, never a 500 or a 503', { timeout: 900_000 }, async () => {
		const table = routeTable()
		const withAction = table.filter((route) => route.hasAction)
		expect(withAction.length).toBeGreaterThan(20)

		// Every page of the table, read by each kind of visitor: the forms they are shown.
		const variants = new Map<string, FormVariant & { cookie: string; who: string }>()
		for (const [who, cookie] of [
			['anonyme', ''],
			['admin', adminCookie],
		] as const) {
			for (const route of table.filter((r) => r.isPage)) {
				for (const url of concretePaths(route)) {
					const page = await getPage(url, cookie)
					if (page.status !== 200 || !page.type.includes('text/html')) continue
					for (const variant of formsOf(page.text, url)) {
						const key = `${who} ${variant.action} ${variant.fields.map(([name]) => name).join(',')} ${variant.fields.at(-1)?.[1]}`
						if (!variants.has(key)) variants.set(key, { ...variant, cookie, who })
					}
				}
			}
		}

		// Each action of the table must be reached by at least one form, or be posted to directly.
		const reached = new Set([...variants.values()].map((variant) => variant.action.split('?')[0]))
		const direct: (FormVariant & { cookie: string; who: string })[] = []
		for (const route of withAction) {
			for (const url of concretePaths(route)) {
				if (reached.has(url)) continue
				for (const [who, cookie] of [
					['anonyme', ''],
					['admin', adminCookie],
				] as const) {
					direct.push({
						action: url,
						fields: [
							['intent', 'walker'],
							['name', 'Texte ordinaire'],
						],
						typed: new Set(),
						from: '(direct)',
						cookie,
						who,
					})
				}
			}
		}

		// One post per field and hostile value: a NUL byte and an override in each field, as a form
		// post and (NUL) as React Router's request; 1 MB once per form (the body's size is refused
		// before any field is read). Forms that delete or end something go last, so that the others
		// still find their rows; signing out would end the walk's own session.
		type Task = { variant: FormVariant & { cookie: string; who: string }; index: number; label: string; hostile: string; target: string }
		const phases: Task[][] = [[], []]
		for (const variant of [...variants.values(), ...direct]) {
			if (variant.action.startsWith('/auth/signout')) continue
			const phase = phases[Number(DESTRUCTIVE.test(variant.fields.map((field) => field.join('=')).join('&')))]!
			variant.fields.forEach(([, value], index) => {
				phase.push({ variant, index, label: 'NUL', hostile: `${value || 'Texte'}${NUL}suite`, target: variant.action })
				phase.push({ variant, index, label: 'NUL', hostile: `${value || 'Texte'}${NUL}suite`, target: dataUrl(variant.action) })
				phase.push({ variant, index, label: 'U+202E', hostile: `${value || 'Texte'}${OVERRIDE}fdp.exe`, target: variant.action })
				if (index === 0) phase.push({ variant, index, label: '1 Mo', hostile: 'a'.repeat(MEGABYTE), target: variant.action })
			})
		}
		expect(phases[0]!.length + phases[1]!.length).toBeGreaterThan(200)

		const failures: string[] = []
		const run = async ({ variant, index, label, hostile, target }: Task) => {
			const name = variant.fields[index]![0]
			const fields = variant.fields.map((field, at): [string, string] => (at === index ? [name, hostile] : field))
			const answer = await post(target, fields, variant.cookie)
			const where = `${variant.who} POST ${target} (${variant.from}) ${name}=${label}: ${answer.status}`
			// A 1 MB body is refused before it is read (server/body-gate.ts, body limits): the client may
			// still be writing when the server lets the connection go, and then sees EPIPE or a reset
			// instead of the 413. That is a refusal, not a failure; any other missing answer is.
			const cutWhileWriting = label === '1 Mo' && answer.status === 0 && /EPIPE|ECONNRESET/.test(answer.text)
			if ((answer.status >= 500 || answer.status === 0) && !cutWhileWriting)
				failures.push(`${where} ${answer.text.slice(0, 160).replace(/\s+/g, ' ')}`)
			else if (label !== '1 Mo' && variant.typed.has(name) && answer.status >= 300 && answer.status < 400) {
				failures.push(`${where} (taken in: redirected to ${answer.location})`)
			}
		}
		for (const phase of phases) {
			// A few at a time, as a handful of visitors would.
			let next = 0
			await Promise.all(
				Array.from({ length: 4 }, async () => {
					while (next < phase.length) await run(phase[next++]!)
				}),
			)
		}
		expect(failures).toEqual([])
	})
})
