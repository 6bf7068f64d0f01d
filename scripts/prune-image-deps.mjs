// Leaves node_modules with what production runs, for the container image (Dockerfile), after
// `npm prune --omit=dev`. That prune keeps the packages package-lock.json marks `devOptional`:
// development tools that a production package names only as an optional peer (vitest and
// drizzle-kit for better-auth, typescript for @react-router/node…), with everything they pull in.
// Nothing at run time needs them, and `--omit=optional` would also drop the optional packages
// production does need (sharp's native binary). So: remove exactly the paths the lock file marks
// `devOptional`, as npm itself resolved them.
import fs from 'node:fs'

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'))
let removed = 0
for (const [location, entry] of Object.entries(lock.packages ?? {})) {
	if (!location.startsWith('node_modules/') || !entry.devOptional || !fs.existsSync(location)) continue
	fs.rmSync(location, { recursive: true, force: true })
	removed++
}
// Their commands in node_modules/.bin now point nowhere.
const bin = 'node_modules/.bin'
for (const name of fs.existsSync(bin) ? fs.readdirSync(bin) : []) {
	const link = `${bin}/${name}`
	if (fs.lstatSync(link).isSymbolicLink() && !fs.existsSync(link)) fs.unlinkSync(link)
}
console.log(`prune-image-deps: removed ${removed} development packages that npm kept as optional peers`)
