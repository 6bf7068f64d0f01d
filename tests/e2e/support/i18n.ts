/* The site's own French strings (the one locale file), for labels the tests look up like a user would. */
import fs from 'node:fs'
import path from 'node:path'
import { ROOT } from './harness.ts'

type Tree = { [key: string]: string | Tree }
let translations: Tree | undefined

export function t(key: string, values: Record<string, string | number> = {}): string {
	translations ??= JSON.parse(fs.readFileSync(path.join(ROOT, 'public', 'locales', 'fr-FR', 'translation.json'), 'utf8')) as Tree
	let node: string | Tree | undefined = translations
	for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined
	if (typeof node !== 'string') throw new Error(`No French string « ${key} » in public/locales/fr-FR/translation.json`)
	return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''))
}
