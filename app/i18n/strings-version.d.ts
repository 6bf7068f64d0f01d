/** The version in the address of the browser's string files (scripts/strings-plugin.ts). */
declare module 'virtual:strings-version' {
	const version: string
	export default version
}
