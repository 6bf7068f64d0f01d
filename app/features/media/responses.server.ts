import type { UploadFailure } from './upload.server.ts'

const noStore = { 'Cache-Control': 'private, no-store' }

/** A JSON answer that no cache keeps (statuses change every second; refusals are personal). */
export function mediaJson(body: unknown, status = 200): Response {
	return Response.json(body, { status, headers: noStore })
}

/**
 * A refused upload, in French. A body too large to read ends the connection too, so that the
 * client stops sending the rest of it.
 */
export function uploadRefusal(failure: UploadFailure): Response {
	return Response.json(
		{ error: failure.message },
		{ status: failure.status, headers: failure.status === 413 ? { ...noStore, Connection: 'close' } : noStore },
	)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Media ids are UUIDs made by the server: anything else is not worth a query. */
export function isMediaId(value: string | undefined): value is string {
	return typeof value === 'string' && UUID.test(value)
}
