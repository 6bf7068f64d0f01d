/*
 * The « Partager » link's island (components/share-link.tsx): loaded by the pages that show the
 * link, which do not hydrate (app/hydration.ts). A click shares the page through the system's share
 * sheet where the browser has one (phones), otherwise copies its address to the clipboard and says
 * so in the live region beside the link. Without this script, or where neither is possible, the
 * link stays what it is in the HTML: a link to the page.
 */
for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-share-copied]')) {
	const status = link.parentElement?.querySelector<HTMLElement>('[data-share-status]')
	const say = (message: string | undefined) => {
		if (!status) return
		status.textContent = message ?? ''
		status.className = message ? (status.dataset.shareStatus ?? '') : 'sr-only'
	}
	link.addEventListener('click', async (event) => {
		// A click meant to open the link elsewhere (new tab, window) keeps its usual meaning.
		if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return
		const data: ShareData = { title: link.dataset.shareTitle, text: link.dataset.shareText, url: link.href }
		const canShare = typeof navigator.share === 'function' && (typeof navigator.canShare !== 'function' || navigator.canShare(data))
		if (!canShare && !navigator.clipboard?.writeText) return
		event.preventDefault()
		say(undefined)
		if (canShare) {
			try {
				await navigator.share(data)
				return
			} catch (error) {
				// Closed by the visitor: nothing to say.
				if ((error as Error)?.name === 'AbortError') return
			}
		}
		try {
			await navigator.clipboard.writeText(link.href)
			say(link.dataset.shareCopied)
		} catch {
			say(link.dataset.shareFailed)
		}
	})
}
