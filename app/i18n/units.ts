import type { Resources } from './translate.ts'

/*
 * The browser loads its strings by units: a top-level namespace of translation.json (`events`), or
 * one group of strings inside one (`newsletter.signup`), when a page needs a small part of a big
 * namespace. The build writes one file per unit (scripts/strings-plugin.ts); the routes declare the
 * units they need (./route-strings.ts). Shared by the build, the browser and the i18n test.
 */

/** Every unit of these strings, with its strings: each namespace, and each group one level below. */
export function stringUnits(tree: Resources): Map<string, Resources> {
	const units = new Map<string, Resources>()
	for (const [namespace, value] of Object.entries(tree)) {
		if (typeof value !== 'object') throw new Error(`translation.json: « ${namespace} » must be a group of strings`)
		units.set(namespace, value)
		for (const [group, inner] of Object.entries(value)) {
			if (typeof inner === 'object') units.set(`${namespace}.${group}`, inner)
		}
	}
	return units
}

/** Whether a unit holds this key (or, for the start of a built key such as `contact.subjects.`, every key it may be). */
export function unitHolds(unit: string, key: string): boolean {
	return key === unit || key.startsWith(`${unit}.`)
}
