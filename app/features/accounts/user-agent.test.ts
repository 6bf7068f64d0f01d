import { describe, expect, it } from 'vitest'
import { describeDevice, parseUserAgent } from './user-agent.ts'
import { getT } from '#app/platform/i18n.server.ts'

const samples: [string, string | null][] = [
	['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36', 'Chrome sur Windows'],
	[
		'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.0.0',
		'Edge sur Windows',
	],
	['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', 'Firefox sur Linux'],
	[
		'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
		'Safari sur macOS',
	],
	[
		'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
		'Safari sur iOS',
	],
	[
		'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/138.0.0.0 Mobile/15E148 Safari/604.1',
		'Chrome sur iOS',
	],
	[
		'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36',
		'Samsung Internet sur Android',
	],
	[
		'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36 OPR/80.0.0.0',
		'Opera sur Android',
	],
	['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36', 'Chrome sur ChromeOS'],
	['Dalvik/2.1.0 (Linux; U; Android 13; Pixel 7)', 'Appareil Android'],
	['curl/8.5.0', null],
	['', null],
]

describe('describeDevice', () => {
	it.each(samples)('reads %s', (userAgent, expected) => {
		expect(describeDevice(userAgent, getT())).toBe(expected)
	})

	it('copes with a missing user agent', () => {
		expect(describeDevice(null, getT())).toBeNull()
		expect(parseUserAgent(undefined)).toEqual({ browser: null, system: null })
	})
})
