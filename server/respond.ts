/*
 * How server/main.ts sends React Router's answer, compressed when the browser takes it
 * (server/compression.ts). A whole document (app/platform/document-body.server.ts keeps its bytes
 * beside the response) is compressed at once and written with its headers and its length in one
 * write: reading a response's body stream back piece by piece, and compressing it through a stream,
 * cost more than a tenth of the dashboard's CPU. Any other response is sent by node-fetch-server,
 * through a compressing stream when it applies.
 */
import type http from 'node:http'
import { sendResponse } from '@remix-run/node-fetch-server'
import { compressResponse, compressWhole } from './compression.ts'

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
 * Sends `response` for `request`; `whole` is its body when the app kept it as bytes (then the body
 * stream is never read). Rejects when it could not be sent (the caller decides what is left to do).
 */
export async function respond(
	req: http.IncomingMessage,
	res: http.ServerResponse,
	request: Request,
	response: Response,
	whole: Uint8Array | undefined,
): Promise<void> {
	if (!whole) return sendResponse(res, compressResponse(request, response))
	const compressed = await compressWhole(request, response, whole)
	if (res.destroyed) return
	res.writeHead(response.status, nodeHeaders(compressed?.headers ?? response.headers))
	res.end(req.method === 'HEAD' ? undefined : (compressed?.body ?? whole))
}
