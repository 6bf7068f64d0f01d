/*
 * A real S3-compatible server in the test process (s3rver): loopback only, a random port, its
 * objects in a temporary folder. s3rver checks the expiry of presigned URLs but not their SigV4
 * signature (it says so in its source: "Signature version 4 calculation is unimplemented"), so
 * the endpoint the tests use is a small front of our own that checks the signature of every
 * presigned request as S3 does (AWS Signature Version 4, query-string form), then passes it on.
 * Credentials are s3rver's fixed ones, S3RVER / S3RVER. The front can also play a service in
 * trouble: answer every request (or every request of some methods) with an error status.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import S3rver from 's3rver'
import { makeTempDir } from './database.ts'

export interface TestS3 {
	endpoint: string
	bucket: string
	region: string
	accessKeyId: string
	secretAccessKey: string
	/** The same, as the site's S3_* environment. */
	env: Record<string, string>
	/**
	 * Answers every request with `status` and S3's InternalError body (only those of `methods` when
	 * given: e.g. reads failing while writes pass), until called again with null.
	 */
	fail(status: number | null, methods?: string[]): void
	/** How many requests the front has answered with an error so far. */
	failures(): number
	close(): Promise<void>
}

const ACCESS_KEY_ID = 'S3RVER'
const SECRET_ACCESS_KEY = 'S3RVER'

/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex')

/** Whether a presigned request's X-Amz-Signature is the one its other parts give (SigV4, query form). */
export function presignedSignatureIsValid(method: string, url: URL, headers: http.IncomingHttpHeaders): boolean {
	const query = url.searchParams
	const [accessKeyId, date, region, service, terminator] = (query.get('X-Amz-Credential') ?? '').split('/')
	if (accessKeyId !== ACCESS_KEY_ID || !date || !region || !service || terminator !== 'aws4_request') return false
	const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean)
	const canonicalQuery = [...query.entries()]
		.filter(([name]) => name !== 'X-Amz-Signature')
		.map(([name, value]) => [encode(name), encode(value)] as const)
		.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
		.map(([name, value]) => `${name}=${value}`)
		.join('&')
	const canonicalHeaders = signedHeaders.map((name) => `${name}:${String(headers[name] ?? '').trim()}\n`).join('')
	const canonicalRequest = [method, url.pathname, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), 'UNSIGNED-PAYLOAD'].join('\n')
	const scope = `${date}/${region}/${service}/aws4_request`
	const stringToSign = ['AWS4-HMAC-SHA256', query.get('X-Amz-Date') ?? '', scope, sha256(canonicalRequest)].join('\n')
	const key = hmac(hmac(hmac(hmac(`AWS4${SECRET_ACCESS_KEY}`, date), region), service), 'aws4_request')
	const expected = Buffer.from(createHmac('sha256', key).update(stringToSign).digest('hex'))
	const given = Buffer.from(query.get('X-Amz-Signature') ?? '')
	return given.length === expected.length && timingSafeEqual(given, expected)
}

export async function startTestS3(bucket = 'band-media'): Promise<TestS3> {
	const temp = makeTempDir()
	const server = new S3rver({
		address: '127.0.0.1',
		port: 0,
		directory: temp.dir,
		silent: true,
		vhostBuckets: false,
		configureBuckets: [{ name: bucket }],
	})
	const backend = await server.run()

	let failing: { status: number; methods?: string[] } | null = null
	let failures = 0
	const front = http.createServer((req, res) => {
		if (failing && (!failing.methods || failing.methods.includes(req.method ?? 'GET'))) {
			failures++
			req.resume()
			res.writeHead(failing.status, { 'Content-Type': 'application/xml' })
			res.end(
				req.method === 'HEAD'
					? undefined
					: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>',
			)
			return
		}
		const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`)
		if (url.searchParams.has('X-Amz-Signature') && !presignedSignatureIsValid(req.method ?? 'GET', url, req.headers)) {
			req.resume()
			res.writeHead(403, { 'Content-Type': 'application/xml' })
			res.end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code></Error>')
			return
		}
		const forward = http.request(
			{ host: '127.0.0.1', port: backend.port, method: req.method, path: req.url, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers)
				answer.pipe(res)
			},
		)
		forward.on('error', () => {
			if (!res.headersSent) res.writeHead(502)
			res.end()
		})
		req.pipe(forward)
	})
	await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
	const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
	return {
		endpoint,
		bucket,
		region: 'us-east-1',
		accessKeyId: ACCESS_KEY_ID,
		secretAccessKey: SECRET_ACCESS_KEY,
		env: {
			S3_ENDPOINT: endpoint,
			S3_BUCKET: bucket,
			S3_REGION: 'us-east-1',
			S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
			S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
		},
		fail(status, methods) {
			failing = status === null ? null : { status, methods }
		},
		failures: () => failures,
		async close() {
			front.closeAllConnections()
			await new Promise<void>((resolve) => front.close(() => resolve()))
			await server.close()
			temp.dispose()
		},
	}
}
