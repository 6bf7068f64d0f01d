import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes'

/*
 * The route table, written out: one line per URL, grouped as the site is (public pages, account
 * area, dashboard and admin, JSON API and machine endpoints). Unknown paths go to `/` (the last route).
 */
export default [
	// Public site
	layout('routes/public/layout.tsx', [
		index('routes/public/home.tsx'),
		route('events', 'routes/public/events.tsx'),
		route('events/:eventId', 'routes/public/event.tsx'),
		route('redeem', 'routes/public/redeem.tsx'),
		route('contact', 'routes/public/contact.tsx'),
		route('unsubscribe', 'routes/public/unsubscribe.tsx'),
		// From every newsletter (?token=): change or remove one's town
		route('newsletter/town', 'routes/public/newsletter-town.tsx'),
		route('policies', 'routes/public/policies.tsx', [
			index('routes/public/policies-index.tsx'),
			route('privacy', 'routes/public/policy.tsx', { id: 'policy-privacy' }),
			route('cookies', 'routes/public/policy.tsx', { id: 'policy-cookies' }),
		]),
	]),
	route('banner', 'routes/public/banner.tsx'),
	// RFC 8058 one-click unsubscribe: mail clients POST here without cookies or Origin
	route('unsubscribe/one-click', 'routes/public/unsubscribe-one-click.ts'),
	// An event as a calendar file, and every upcoming one as a calendar to subscribe to
	route('events/:eventId/agenda.ics', 'routes/public/event-ics.ts'),
	route('events.ics', 'routes/public/events-ics.ts'),
	route('sitemap.xml', 'routes/public/sitemap.ts'),
	route('robots.txt', 'routes/public/robots.ts'),

	// Account area
	route('auth', 'routes/auth/layout.tsx', [
		index('routes/auth/index.tsx'),
		route('signin', 'routes/auth/signin.tsx'),
		route('signup', 'routes/auth/signup.tsx'),
		route('signout', 'routes/auth/signout.tsx'),
		route('forgot-password', 'routes/auth/forgot-password.tsx'),
		route('claim', 'routes/auth/claim.tsx'),
	]),
	// Account actions without a screen of their own (POST only)
	route('auth/social', 'routes/auth/social.ts'),
	route('auth/resend-verification', 'routes/auth/resend-verification.ts'),

	// Member dashboard and admin
	route('dashboard', 'routes/dashboard/layout.tsx', [
		index('routes/dashboard/home.tsx'),
		route('settings', 'routes/dashboard/settings.tsx'),
		route('settings/export', 'routes/dashboard/settings-export.ts'),
		route('contenus/:fileId', 'routes/dashboard/download.ts'),
		route('settings/newsletter', 'routes/dashboard/settings-newsletter.ts'),
		route('admin', 'routes/admin/layout.tsx', [
			// The admin's first screen is the stats screen.
			index('routes/admin/index.tsx'),
			route('stats', 'routes/admin/stats.tsx'),
			route('messages', 'routes/admin/messages.tsx'),
			route('messages/:messageId', 'routes/admin/message.tsx'),
			route('events', 'routes/admin/events.tsx'),
			// `new`: an event not stored yet (ids are 12 random characters, never « new »)
			route('events/:eventId', 'routes/admin/event-editor.tsx'),
			// Setlists and the song library they are built from
			route('setlist', 'routes/admin/setlist/setlists.tsx'),
			route('setlist/songs', 'routes/admin/setlist/songs.tsx'),
			route('setlist/songs/import', 'routes/admin/setlist/songs-import.tsx'),
			// `new`: a song not stored yet (ids are random, never « new »)
			route('setlist/songs/:songId', 'routes/admin/setlist/song-editor.tsx'),
			route('setlist/:setlistId', 'routes/admin/setlist/builder.tsx'),
			// Codes: campaigns (`new`: not stored yet), one code's page, imports
			route('codes', 'routes/admin/codes.tsx'),
			route('codes/code/:code', 'routes/admin/code-detail.tsx'),
			route('codes/:campaignId', 'routes/admin/code-campaign.tsx'),
			route('codes/:campaignId/import', 'routes/admin/code-import.tsx'),
			route('newsletter', 'routes/admin/newsletter.tsx'),
			route('newsletter/subscribers', 'routes/admin/newsletter-subscribers.tsx'),
			route('newsletter/subscribers/import', 'routes/admin/newsletter-import.tsx'),
			// `new`: a campaign not stored yet
			route('newsletter/campaigns/:campaignId', 'routes/admin/newsletter-campaign.tsx'),
		]),
	]),

	// JSON API and machine endpoints
	...prefix('api', [route('me', 'routes/api/me.ts'), route('auth/*', 'routes/api/auth.ts'), route('towns', 'routes/api/towns.ts')]),
	route('healthz', 'routes/api/healthz.ts'),
	route('readyz', 'routes/api/readyz.ts'),
	route('metrics', 'routes/api/metrics.ts'),

	// Uploaded images: renditions (public, immutable), signed downloads, uploads and their progress
	route('media/*', 'routes/public/media-file.ts'),
	route('files/*', 'routes/api/files.ts'),
	route('dashboard/admin/media/:id?', 'routes/admin/media.ts'),
	// A setlist for the stage (outside the dashboard's frame: an A4 sheet, a full screen), and the
	// event editor's setlist panel
	route('dashboard/admin/setlist/:setlistId/print', 'routes/admin/setlist/print.tsx'),
	route('dashboard/admin/setlist/:setlistId/stage', 'routes/admin/setlist/stage.tsx'),
	// The stage views' service worker: from this folder, its scope is the setlists' at most
	route('dashboard/admin/setlist/stage-worker.js', 'routes/admin/setlist/stage-worker.ts'),
	route('dashboard/admin/setlist/event/:eventId', 'routes/admin/setlist/event-setlist.ts'),
	// Admin screens that update while open (server-sent events), and the stats as CSV
	route('dashboard/admin/live', 'routes/admin/live.ts'),
	route('dashboard/admin/stats.csv', 'routes/admin/stats-csv.ts'),
	// Newsletter: the compose screen's preview, a send's live progress (SSE), the list as CSV
	route('dashboard/admin/newsletter/preview', 'routes/admin/newsletter-preview.ts'),
	// An announcement's audience, counted live as the admin moves the radius
	route('dashboard/admin/newsletter/audience', 'routes/admin/newsletter-audience.ts'),
	route('dashboard/admin/newsletter/campaigns/:campaignId/progress', 'routes/admin/newsletter-progress.ts'),
	route('dashboard/admin/newsletter/subscribers.csv', 'routes/admin/newsletter-export.ts'),
	route('dashboard/admin/newsletter/imports/:importId/progress', 'routes/admin/newsletter-import-progress.ts'),
	route('dashboard/settings/avatar/:id?', 'routes/dashboard/settings-avatar.ts'),
	route('favicon.svg', 'routes/api/favicon.ts'),
	// Codes: a campaign's files, a batch's live progress, its CSV and its print sheet (no dashboard frame)
	route('dashboard/admin/codes/:campaignId/files', 'routes/admin/code-files.ts'),
	route('dashboard/admin/codes/batches/:batchId/progress', 'routes/admin/code-progress.ts'),
	route('dashboard/admin/codes/batches/:batchId/export.csv', 'routes/admin/code-export.ts'),
	route('dashboard/admin/codes/batches/:batchId/print', 'routes/admin/code-print.tsx'),

	route('*', 'routes/public/catch-all.tsx'),
] satisfies RouteConfig
