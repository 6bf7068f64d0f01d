// Imported by server/index.ts before server/main.ts, so before React and React Router are evaluated (they pick their
// build from NODE_ENV at that moment).

/**
 * `node server/index.ts --dev` (`npm run dev`): the same server, with Vite's development server
 * inside it instead of a build (server/main.ts). NODE_ENV is then `development`, whatever the
 * environment or .env say, and the server listens on localhost unless HOST is set on the command
 * line (a production .env's HOST=0.0.0.0 is not enough): Vite serves the project's source files,
 * which are nobody else's business.
 */
export const development = process.argv.includes('--dev')
if (development) {
	process.env.NODE_ENV = 'development'
	process.env.HOST ??= 'localhost'
}

// Settings and secrets may come from a .env file beside package.json (never committed). Variables
// already in the environment win over the file. Test harnesses set IGNORE_DOTENV=1 so that a
// developer's .env (a real SMTP relay, say) never leaks into a test run.
if (process.env.IGNORE_DOTENV !== '1') {
	try {
		process.loadEnvFile(new URL('../.env', import.meta.url))
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
	}
}

process.env.NODE_ENV ??= 'production'
