import path from 'node:path'
import type { Env } from '../env.server.ts'
import { createLocalStorage } from './local-storage.server.ts'
import type { Storage } from './storage.server.ts'

type StorageEnv = Pick<
	Env,
	'DATA_DIR' | 'SITE_URL' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'
>

/**
 * The site's file store, chosen by the environment alone: an S3-compatible bucket when S3_BUCKET
 * is set, otherwise the folder DATA_DIR/files. A half-done S3 configuration stops the start with
 * a message rather than quietly writing files to the local disk of one instance.
 */
export async function createStorage(env: StorageEnv, secret: string): Promise<Storage> {
	const s3Set = [env.S3_ENDPOINT, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY].some(Boolean)
	if (!env.S3_BUCKET) {
		if (s3Set) throw new Error('S3 storage: S3_BUCKET is missing (S3_ENDPOINT or S3 keys are set without a bucket).')
		return createLocalStorage({ root: path.join(env.DATA_DIR, 'files'), secret, siteUrl: env.SITE_URL })
	}
	if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
		throw new Error('S3 storage: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither.')
	}
	// The S3 SDK is loaded only when S3 is configured: it costs a fifth of a second and ~20 MB at start.
	const { createS3Storage } = await import('./s3-storage.server.ts')
	return createS3Storage({
		endpoint: env.S3_ENDPOINT,
		bucket: env.S3_BUCKET,
		region: env.S3_REGION,
		accessKeyId: env.S3_ACCESS_KEY_ID,
		secretAccessKey: env.S3_SECRET_ACCESS_KEY,
	})
}
