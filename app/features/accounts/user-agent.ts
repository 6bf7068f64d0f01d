import type { TFunction } from '#app/i18n/translate.ts'

/*
 * A readable name for the device behind a session (« Firefox sur Windows »), from its User-Agent.
 * Only the common browsers and systems are told apart; anything else reads as unknown. The order
 * of the checks matters: Edge, Opera and Samsung Internet also say "Chrome", and Chrome says "Safari".
 */
const BROWSERS: [RegExp, string][] = [
	[/\bEdg(?:e|A|iOS)?\//, 'Edge'],
	[/\b(?:OPR|Opera)\//, 'Opera'],
	[/\bSamsungBrowser\//, 'Samsung Internet'],
	[/\b(?:Firefox|FxiOS)\//, 'Firefox'],
	[/\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
	[/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
]

const SYSTEMS: [RegExp, string][] = [
	[/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
	[/\bAndroid\b/, 'Android'],
	[/\bWindows\b/, 'Windows'],
	[/\bCrOS\b/, 'ChromeOS'],
	[/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
	[/\bLinux\b/, 'Linux'],
]

export interface Device {
	browser: string | null
	system: string | null
}

export function parseUserAgent(userAgent: string | null | undefined): Device {
	const text = (userAgent ?? '').slice(0, 512)
	return {
		browser: BROWSERS.find(([pattern]) => pattern.test(text))?.[1] ?? null,
		system: SYSTEMS.find(([pattern]) => pattern.test(text))?.[1] ?? null,
	}
}

/** « Firefox sur Windows », « Safari », « Appareil Android », or null when nothing is recognised. */
export function describeDevice(userAgent: string | null | undefined, t: TFunction): string | null {
	const { browser, system } = parseUserAgent(userAgent)
	if (browser && system) return t('settings.sessions.browserOnSystem', { browser, system })
	if (browser) return browser
	if (system) return t('settings.sessions.systemOnly', { system })
	return null
}
