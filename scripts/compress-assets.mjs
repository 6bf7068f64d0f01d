// Writes .br and .gz siblings of every compressible built client file, for the server to send as is.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const root = path.resolve(process.env.BUILD_DIR ?? 'build', 'client')
const compressible = /\.(js|mjs|css|json|svg|txt|xml|map|webmanifest)$/
let count = 0
function walk(dir) {
	for (const dirent of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, dirent.name)
		if (dirent.isDirectory()) walk(full)
		else if (compressible.test(dirent.name) && fs.statSync(full).size > 256) {
			const input = fs.readFileSync(full)
			fs.writeFileSync(full + '.br', zlib.brotliCompressSync(input, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }))
			fs.writeFileSync(full + '.gz', zlib.gzipSync(input, { level: 9 }))
			count++
		}
	}
}
walk(root)
console.log(`compressed ${count} files (br, gzip)`)
