// Imported by server/index.ts before server/main.ts, so before React and React Router are evaluated (they pick their
// build from NODE_ENV at that moment).

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
