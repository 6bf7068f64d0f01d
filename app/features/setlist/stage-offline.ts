import { useSyncExternalStore } from 'react'

/*
 * The browser's side of the stage view offline (docs/decisions/0021-stage-view-offline.md): the stage
 * view registers its service worker (app/features/setlist/stage-worker.js), then asks it to keep
 * this page and the built files it used, so that it opens again without a network.
 */
const WORKER_URL = '/dashboard/admin/setlist/stage-worker.js'
/** As narrow as the stage views allow: the setlists' folder (the worker answers only the stage views in it). */
const WORKER_SCOPE = '/dashboard/admin/setlist/'

/** Registers the worker (once per browser) and asks it to keep this stage view. Never throws. */
export async function keepStageViewOffline(name: string): Promise<void> {
	if (!('serviceWorker' in navigator) || !window.isSecureContext) return
	try {
		await navigator.serviceWorker.register(WORKER_URL, { scope: WORKER_SCOPE, updateViaCache: 'none' })
		const registration = await navigator.serviceWorker.ready
		// The display face is fetched when first drawn: wait for it, so that it is on the list.
		await document.fonts?.ready
		const assets = performance
			.getEntriesByType('resource')
			.map((entry) => entry.name)
			.filter((address) => {
				const url = new URL(address)
				return url.origin === location.origin && url.pathname.startsWith('/assets/')
			})
		registration.active?.postMessage({ type: 'keep', name, assets })
	} catch {
		// Private browsing, storage full, a browser without workers: the page works online as before.
	}
}

function subscribe(onChange: () => void): () => void {
	window.addEventListener('online', onChange)
	window.addEventListener('offline', onChange)
	return () => {
		window.removeEventListener('online', onChange)
		window.removeEventListener('offline', onChange)
	}
}

/** Whether the browser says it has no network (the server renders as online). */
export function useOffline(): boolean {
	return useSyncExternalStore(
		subscribe,
		() => !navigator.onLine,
		() => false,
	)
}
