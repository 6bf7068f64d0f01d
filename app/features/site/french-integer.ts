/**
 * A whole number as French writes it (« 50 000 »: groups of three digits, narrow no-break space),
 * the same text as `toLocaleString('fr-FR')`, without Intl. For the messages that forms' rules
 * build as their module loads: a browser's first use of Intl loads its locale data, some 30 ms of
 * one task on this machine (four times that on a phone), and a public page's hydration then needs
 * none at all.
 */
export function frenchInteger(value: number): string {
	if (!Number.isSafeInteger(value)) return value.toLocaleString('fr-FR')
	const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')
	return value < 0 ? `-${digits}` : digits
}
