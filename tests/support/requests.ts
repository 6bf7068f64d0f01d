import { RouterContextProvider, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from 'react-router'

/** The site's address in tests (SITE_URL): requests are built on it, as a browser would send them. */
export const SITE_URL = 'http://localhost:3000'

/** What React Router hands a loader or an action in framework mode (with middleware, the v8 default). */
export function routeArgs<Params extends Record<string, string> = Record<never, never>>(
	request: Request,
	pattern: string,
	params: Params = {} as Params,
) {
	return {
		request,
		url: new URL(request.url),
		params,
		pattern,
		context: new RouterContextProvider(),
	}
}

let lastAddress = 0
/**
 * The address our HTTP server would have put in X-Client-Address: a different one per request
 * (from 198.18.0.0/15, kept for tests), so that per-address rate limits never mix test cases.
 */
function nextClientAddress(): string {
	lastAddress += 1
	return `198.18.${(lastAddress >> 8) & 255}.${lastAddress & 255}`
}

interface RequestOptions {
	cookie?: string
	/** Defaults to a fresh address per request. */
	clientAddress?: string
}

function browserHeaders(options: RequestOptions, extra: Record<string, string> = {}): Headers {
	const headers = new Headers({
		'user-agent': 'vitest',
		'x-client-address': options.clientAddress ?? nextClientAddress(),
		...extra,
	})
	if (options.cookie) headers.set('cookie', options.cookie)
	return headers
}

/** A form POST from one of the site's own pages. */
export function formPost(path: string, fields: Record<string, string>, options: RequestOptions = {}): Request {
	return new Request(new URL(path, SITE_URL), {
		method: 'POST',
		body: new URLSearchParams(fields),
		headers: browserHeaders(options, {
			origin: SITE_URL,
			'sec-fetch-site': 'same-origin',
			'content-type': 'application/x-www-form-urlencoded',
		}),
	})
}

export function get(path: string, options: RequestOptions = {}): Request {
	return new Request(new URL(path, SITE_URL), { headers: browserHeaders(options, { accept: 'application/json' }) })
}

/** A fetch() with a JSON body from the site's own scripts. `body` as a string is sent verbatim. */
export function jsonRequest(method: string, path: string, body: unknown, options: RequestOptions & { contentType?: string } = {}): Request {
	return new Request(new URL(path, SITE_URL), {
		method,
		body: typeof body === 'string' ? body : JSON.stringify(body),
		headers: browserHeaders(options, {
			'content-type': options.contentType ?? 'application/json',
			origin: SITE_URL,
			'sec-fetch-site': 'same-origin',
		}),
	})
}

/** The `Cookie` header a browser would send back after these `Set-Cookie` headers. */
export function cookieFrom(headers: Headers): string {
	return headers
		.getSetCookie()
		.map((line) => line.split(';')[0]!.trim())
		.filter((pair) => pair.split('=')[1] !== '')
		.join('; ')
}

/** What `data(value, init)` from react-router returns (its class is not exported at run time). */
function isData(value: unknown): value is DataWithResponseInit<unknown> {
	return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'DataWithResponseInit'
}

export interface Outcome {
	status: number
	headers: Headers
	body: unknown
}

/**
 * What a loader or action result becomes on the wire: a Response as is, `data(value, init)` with its
 * status and headers, and a bare value as a 200.
 */
export async function outcome(result: unknown): Promise<Outcome> {
	if (result instanceof Response) {
		const text = await result.text()
		let body: unknown = text
		try {
			body = text ? JSON.parse(text) : null
		} catch {
			// not JSON: keep the text
		}
		return { status: result.status, headers: result.headers, body }
	}
	if (isData(result)) {
		return { status: result.init?.status ?? 200, headers: new Headers(result.init?.headers), body: result.data }
	}
	return { status: 200, headers: new Headers(), body: result }
}

/** Runs a loader or action that is expected to throw (a guard): returns what it threw, as an Outcome. */
export async function thrown(run: () => unknown): Promise<Outcome> {
	try {
		await run()
	} catch (error) {
		if (error instanceof Response || isData(error)) return outcome(error)
		throw error
	}
	throw new Error('expected a thrown response, but it returned')
}
