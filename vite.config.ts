import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

// `npm run dev` and the build read the same .env as the production server (never under Vitest or a harness).
if (!process.env.VITEST && process.env.IGNORE_DOTENV !== '1') {
	try {
		process.loadEnvFile('.env')
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
	}
}

export default defineConfig({
	resolve: { tsconfigPaths: true },
	// Vitest imports app modules one by one: the React Router plugin (route table, virtual build
	// modules, typegen) has no place there.
	plugins: [tailwindcss(), ...(process.env.VITEST ? [] : [reactRouter()])],
	build: { target: 'es2022' },
	server: { port: Number(process.env.PORT ?? 3000) },
	ssr: {
		// Native or WASM-bearing server packages stay outside the server bundle.
		external: ['@electric-sql/pglite', 'pg', 'pino', 'proper-lockfile'],
	},
})
