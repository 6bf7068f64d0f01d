// `npm start` builds only when the sources changed since the last build: it hashes what the build
// reads (app/, public/, the build's configuration and the lockfile) and compares with the hash the
// last build left in build/.sources-hash. A first start builds (see the README for how long); later
// ones start at once. The build's own listing (hundreds of asset lines) stays out of the server's
// log: it is printed only if the build fails.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'build')
const stampFile = path.join(buildDir, '.sources-hash')
const inputs = [
	'app',
	'public',
	'vite.config.ts',
	'react-router.config.ts',
	'tsconfig.json',
	'package.json',
	'package-lock.json',
	'scripts/compress-assets.mjs',
	'scripts/build-towns.ts',
	'scripts/font-subsets.ts',
	'scripts/strings-plugin.ts',
]

function files(entry) {
	const full = path.join(root, entry)
	if (!fs.existsSync(full)) return []
	if (!fs.statSync(full).isDirectory()) return [entry]
	return fs
		.readdirSync(full, { recursive: true, withFileTypes: true })
		.filter((dirent) => dirent.isFile() && !dirent.parentPath.includes(`${path.sep}+types`))
		.map((dirent) => path.relative(root, path.join(dirent.parentPath, dirent.name)))
}

const hash = createHash('sha256')
for (const file of inputs.flatMap(files).sort()) {
	hash.update(`${file}\0`)
	hash.update(fs.readFileSync(path.join(root, file)))
}
const current = hash.digest('hex')
const previous = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : null

if (previous === current && fs.existsSync(path.join(buildDir, 'server', 'index.js'))) {
	console.log('Sources unchanged since the last build: starting it as is (npm run build forces a new one).')
} else {
	console.log(
		previous
			? 'Sources changed: building the site again (15 s to a few minutes)…'
			: 'First start: building the site (15 s on an idle 2-core machine, up to 3 minutes on a busy one)…',
	)
	const started = Date.now()
	const npm = process.env.npm_execpath
	const options = { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] }
	const result = npm
		? spawnSync(process.execPath, [npm, 'run', '--silent', 'build'], options)
		: spawnSync('npm', ['run', '--silent', 'build'], { ...options, shell: process.platform === 'win32' })
	if (result.status !== 0) {
		process.stdout.write(result.stdout ?? '')
		process.stderr.write(result.stderr ?? '')
		console.error(`The build failed${result.error ? ` (${result.error.message})` : ''}: its output is above.`)
		process.exit(result.status ?? 1)
	}
	fs.writeFileSync(stampFile, `${current}\n`)
	console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`)
}
