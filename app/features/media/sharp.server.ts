import type sharpType from 'sharp'

/** sharp (libvips) is loaded on the first image, not at start: it costs time and memory a visitor never needs. */
let loading: Promise<typeof sharpType> | undefined
export function loadSharp(): Promise<typeof sharpType> {
	loading ??= import('sharp').then((module) => module.default)
	return loading
}
