import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type BuildEnvironmentOptions, type Plugin, type SSROptions } from 'vite'
import { fontSubsets } from './scripts/font-subsets.ts'
import { stringsPlugin } from './scripts/strings-plugin.ts'

// `npm run dev` and the build read the same .env as the production server (never under Vitest or a harness).
if (!process.env.VITEST && process.env.IGNORE_DOTENV !== '1') {
	try {
		process.loadEnvFile('.env')
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
	}
}

/**
 * The browser's chunks. Left to the bundler, each small module shared by two screens became a file
 * of its own: a signed-in page listed some 38 `<link rel="modulepreload">` (React renders each one,
 * React Router computes each one, the browser fetches each one). Here the framework is one chunk and
 * our shared components and helpers another, each loaded once and cached by every screen after.
 * Public pages load none of it: they send no React Router script (app/hydration.ts), and their
 * islands are files of their own (app/islands/). Route modules stay one file each, as React Router
 * names them (docs/decisions/0037-fewer-client-chunks.md).
 */
const CLIENT_OUTPUT = {
	// React Router's own name for its route and entry files (given here, this object replaces its default).
	entryFileNames: 'assets/[name]-[hash].js',
	codeSplitting: {
		groups: [
			// React, React DOM and React Router: every page that hydrates runs them.
			{
				name: 'framework',
				test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
				priority: 3,
			},
			// The shared components, icons and strings that most screens show (not the forms' checks in
			// the browser, which bring zod: only the screens with such a form load it).
			{
				name: 'ui',
				test: /[\\/](app[\\/](components[\\/](?!forms[\\/]validate-in-browser)|i18n[\\/]|hydration\.ts)|node_modules[\\/](clsx|lucide)[\\/])/,
				minShareCount: 2,
				priority: 2,
			},
		],
	},
} satisfies NonNullable<NonNullable<BuildEnvironmentOptions['rolldownOptions']>['output']>

export default defineConfig({
	resolve: { tsconfigPaths: true },
	plugins: [
		// The faces cut down to what the site sets, written before the stylesheets are read.
		fontSubsets(),
		tailwindcss(),
		// The browser's strings, one file per unit of translation.json.
		stringsPlugin(path.resolve(import.meta.dirname, 'public/locales/fr-FR/translation.json')),
		// Vitest imports app modules one by one: the React Router plugin (route table, virtual build
		// modules, typegen) has no place there.
		...(process.env.VITEST ? [] : [reactRouter()]),
		serverBundle(),
	],
	build: { target: 'es2022' },
	environments: { client: { build: { rolldownOptions: { output: CLIENT_OUTPUT } } } },
})

/**
 * The server bundle's settings, for the build and Vitest. The development server keeps Vite's
 * default (packages loaded by Node as they are): its module runner cannot evaluate a CommonJS
 * package inlined this way (pg-boss's cron-parser: « exports is not defined » on every page).
 */
function serverBundle(): Plugin {
	return {
		name: 'server-bundle',
		config: (_config, { command }) => (command === 'build' || process.env.VITEST ? { ssr: SERVER_BUNDLE } : undefined),
	}
}

const SERVER_BUNDLE: SSROptions = {
	// Every other package is bundled into the server build: Node then loads a few files instead of
	// thousands (measured: importing the build went from ~2.5 s to ~0.3 s, and ~100 MB less memory),
	// and only the parts we use (lucide's icons, React Email's components) are there at all.
	noExternal: true,
	// Outside: React and React Router (server/index.ts shares one copy of them with the build),
	// native or WASM-bearing packages, pino (its transports run in workers) and what is loaded
	// only when configured (the S3 SDK).
	external: [
		'react',
		'react-dom',
		'react-router',
		'@react-router/node',
		'@electric-sql/pglite',
		'pg',
		'pino',
		'pino-pretty',
		'proper-lockfile',
		'sharp',
		'@aws-sdk/client-s3',
		'@aws-sdk/s3-request-presigner',
	],
}
