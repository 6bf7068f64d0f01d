import {
	AbortMultipartUploadCommand,
	CompleteMultipartUploadCommand,
	CreateMultipartUploadCommand,
	DeleteObjectCommand,
	GetObjectCommand,
	HeadObjectCommand,
	PutObjectCommand,
	S3Client,
	UploadPartCommand,
	type GetObjectCommandOutput,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import {
	assertStorageKey,
	clampExpiry,
	contentDisposition,
	type ByteRange,
	type Storage,
	type StoredObject,
	type StoredObjectInfo,
} from './storage.server.ts'

export interface S3Options {
	/** e.g. https://s3.fr-par.scw.cloud or http://127.0.0.1:9000; unset for AWS itself. */
	endpoint?: string
	bucket: string
	region: string
	accessKeyId?: string
	secretAccessKey?: string
}

export interface S3Storage extends Storage {
	readonly kind: 's3'
	readonly client: S3Client
	readonly bucket: string
}

const notFound = (error: unknown) => {
	const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
	return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404
}

/** The size of each part of a streamed upload (S3 wants at least 5 MiB for every part but the last). */
const PART_BYTES = 8 * 1024 * 1024

/** `bytes 0-99/1234` → 1234 */
function totalFromContentRange(value: string | undefined): number | undefined {
	const match = value?.match(/\/(\d+)$/)
	return match ? Number(match[1]) : undefined
}

/**
 * An S3-compatible bucket (AWS, MinIO, Garage, Scaleway, OVH, s3rver in the tests). With an
 * endpoint, addresses are path-style (`endpoint/bucket/key`), which every such store understands.
 * Checksums are sent only where the protocol requires them: several compatible stores refuse the
 * newer ones the SDK adds by default.
 */
export function createS3Storage(options: S3Options): S3Storage {
	const client = new S3Client({
		region: options.region,
		endpoint: options.endpoint,
		forcePathStyle: Boolean(options.endpoint),
		credentials:
			options.accessKeyId && options.secretAccessKey
				? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
				: undefined,
		requestChecksumCalculation: 'WHEN_REQUIRED',
		responseChecksumValidation: 'WHEN_REQUIRED',
	})
	const Bucket = options.bucket

	const infoOf = (output: {
		ContentLength?: number
		ContentType?: string
		ETag?: string
		LastModified?: Date
		ContentRange?: string
	}): StoredObjectInfo => ({
		size: totalFromContentRange(output.ContentRange) ?? output.ContentLength ?? 0,
		contentType: output.ContentType ?? 'application/octet-stream',
		etag: output.ETag ?? '""',
		lastModified: output.LastModified ?? new Date(0),
	})

	async function getObject(key: string, range?: ByteRange): Promise<GetObjectCommandOutput | null> {
		assertStorageKey(key)
		try {
			return await client.send(new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
		} catch (error) {
			if (notFound(error)) return null
			throw error
		}
	}

	return {
		kind: 's3',
		client,
		bucket: Bucket,

		async put(key, body, { contentType }) {
			assertStorageKey(key)
			const output = await client.send(
				new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.byteLength }),
			)
			return { size: body.byteLength, contentType, etag: output.ETag ?? '""', lastModified: new Date() }
		},

		async putStream(key, body, { contentType }) {
			assertStorageKey(key)
			// Pieces are gathered into parts of PART_BYTES: one part in memory at a time. A file that
			// fits in one part is put in one request.
			const pieces = body[Symbol.asyncIterator]()
			let finished = false
			const nextPart = async (): Promise<Uint8Array> => {
				const gathered: Uint8Array[] = []
				let length = 0
				while (length < PART_BYTES) {
					const { done, value } = await pieces.next()
					if (done) {
						finished = true
						break
					}
					gathered.push(value)
					length += value.byteLength
				}
				return Buffer.concat(gathered, length)
			}
			const first = await nextPart()
			if (finished) {
				const output = await client.send(
					new PutObjectCommand({ Bucket, Key: key, Body: first, ContentType: contentType, ContentLength: first.byteLength }),
				)
				return { size: first.byteLength, contentType, etag: output.ETag ?? '""', lastModified: new Date() }
			}
			const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }))
			try {
				const parts: { ETag?: string; PartNumber: number }[] = []
				let size = 0
				for (let part: Uint8Array | null = first; part; part = finished ? null : await nextPart()) {
					if (part.byteLength === 0 && parts.length > 0) break
					const PartNumber = parts.length + 1
					const output = await client.send(
						new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber, Body: part, ContentLength: part.byteLength }),
					)
					parts.push({ ETag: output.ETag, PartNumber })
					size += part.byteLength
				}
				const output = await client.send(
					new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
				)
				return { size, contentType, etag: output.ETag ?? '""', lastModified: new Date() }
			} catch (error) {
				await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => {})
				throw error
			}
		},

		async stat(key) {
			assertStorageKey(key)
			try {
				return infoOf(await client.send(new HeadObjectCommand({ Bucket, Key: key })))
			} catch (error) {
				if (notFound(error)) return null
				throw error
			}
		},

		async get(key, { range }: { range?: ByteRange } = {}): Promise<StoredObject | null> {
			const output = await getObject(key, range)
			if (!output?.Body) return null
			return { ...infoOf(output), body: output.Body.transformToWebStream() as ReadableStream<Uint8Array>, range }
		},

		async read(key) {
			const output = await getObject(key)
			if (!output?.Body) return null
			return output.Body.transformToByteArray()
		},

		async delete(key) {
			assertStorageKey(key)
			await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
		},

		async signedUrl(key, signOptions = {}) {
			assertStorageKey(key)
			const command = new GetObjectCommand({
				Bucket,
				Key: key,
				ResponseContentDisposition: signOptions.downloadName ? contentDisposition(signOptions.downloadName) : undefined,
			})
			return getSignedUrl(client, command, { expiresIn: clampExpiry(signOptions.expiresInSeconds) })
		},
	}
}
