import type { Config } from '@react-router/dev/config'

// The floor of bench/dashboard.ts: a React Router app with one route and one paragraph.
export default {
	ssr: true,
	appDirectory: 'app',
	buildDirectory: process.env.BUILD_DIR ?? 'build',
} satisfies Config
