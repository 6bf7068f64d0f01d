/*
 * How server/main.ts sends React Router's answer. A whole document going out uncompressed
 * (app/platform/document-body.server.ts keeps its bytes beside the response) is written as those
 * bytes, headers and body in one write: reading a response's body stream back, piece by piece,
 * cost about a tenth of the dashboard's CPU. Any other response is sent by node-fetch-server.
 */
import type http from 'node:http'
import { sendResponse } from '@remix-run/node-fetch-server'

/** A response's headers as Node writes them: each Set-Cookie apart. */
export function nodeHeaders(headers: Headers): http.OutgoingHttpHeaders {
	const out: Record<string, string | string[]> = {}
	for (const [name, value] of headers) {
		const seen = out[name]
		out[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]
	}
	return out
}

/**
 * Sends `response`; `whole` is its body when the app kept it as bytes (then the body stream is never
 * read). Rejects when node-fetch-server could not send it (the caller decides what is left to do).
 */
export async function respond(req: http.IncomingMessage, res: http.ServerResponse, response: Response, whole: Uint8Array | undefined) {
	if (!whole) return sendResponse(res, response)
	res.writeHead(response.status, nodeHeaders(response.headers))
	res.end(req.method === 'HEAD' ? undefined : whole)
}
