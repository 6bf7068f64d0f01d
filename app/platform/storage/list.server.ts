import type { Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { isLocalStorage } from './local-storage.server.ts'
import type { S3Storage } from './s3-storage.server.ts'
import { isStorageKey, type Storage } from './storage.server.ts'

export interface ListedFile {
	key: string
	size: number
}

/**
 * Every stored file, in key order, for backups and for the move to S3 (not a request path: it
 * walks the whole store). Only names that are valid storage keys are listed: the local folder's
 * temporary files and anything an operator dropped there by hand are not the site's files.
 */
export async function listStoredFiles(storage: Storage): Promise<ListedFile[]> {
	const files: ListedFile[] = []
	if (isLocalStorage(storage)) {
		const walk = async (dir: string, prefix: string): Promise<void> => {
			let entries: Dirent[]
			try {
				entries = await fs.readdir(dir, { withFileTypes: true })
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
				throw error
			}
			for (const entry of entries) {
				const key = prefix ? `${prefix}/${entry.name}` : entry.name
				if (entry.isDirectory()) {
					if (entry.name.startsWith('.')) continue
					await walk(path.join(dir, entry.name), key)
				} else if (entry.isFile() && isStorageKey(key)) {
					files.push({ key, size: (await fs.stat(path.join(dir, entry.name))).size })
				}
			}
		}
		await walk(storage.root, '')
	} else {
		const { client, bucket } = storage as S3Storage
		// The S3 SDK is loaded where S3 is used, not at the start of every server (see create-storage.server.ts).
		const { ListObjectsV2Command } = await import('@aws-sdk/client-s3')
		let token: string | undefined
		do {
			const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }))
			for (const object of page.Contents ?? []) {
				if (object.Key && isStorageKey(object.Key)) files.push({ key: object.Key, size: object.Size ?? 0 })
			}
			token = page.IsTruncated ? page.NextContinuationToken : undefined
		} while (token)
	}
	return files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}
