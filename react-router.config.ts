import type { Config } from '@react-router/dev/config'

export default {
	ssr: true,
	// BUILD_DIR lets several builds live side by side (tests, benchmarks); the server reads the same variable.
	buildDirectory: process.env.BUILD_DIR ?? 'build',
	// React Router's own origin check answers a bare 400 and logs a stack for every cross-site post:
	// let every origin through to the site's own check (app/platform/origin-check.server.ts, the root
	// middleware), which answers the French 403 page and logs one short line.
	allowedActionOrigins: ['**'],
	// The whole route table goes to the browser in one cached file instead of a partial manifest
	// written in every page: no matching per render for it, no /__manifest to answer
	// (docs/decisions/0031-route-table-sent-whole.md).
	routeDiscovery: { mode: 'initial' },
} satisfies Config
