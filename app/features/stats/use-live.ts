import { useEffect } from 'react'
import { useRevalidator } from 'react-router'

/**
 * Keeps an admin screen current while it is open: listens to a server-sent events stream and
 * reloads the screen's data when the server says something changed (at most once every 2 s, and
 * not while the tab is hidden: it catches up when it is shown again).
 */
export function useLiveRevalidation(url: string) {
	const { revalidate } = useRevalidator()
	useEffect(() => {
		if (typeof EventSource === 'undefined') return
		const source = new EventSource(url)
		let timer: ReturnType<typeof setTimeout> | undefined
		let stale = false
		let last = 0
		const refresh = () => {
			if (document.visibilityState === 'hidden') {
				stale = true
				return
			}
			if (timer) return
			const wait = Math.max(0, last + 2_000 - Date.now())
			timer = setTimeout(() => {
				timer = undefined
				last = Date.now()
				void revalidate()
			}, wait)
		}
		const onVisible = () => {
			if (document.visibilityState === 'visible' && stale) {
				stale = false
				refresh()
			}
		}
		source.addEventListener('changed', refresh)
		document.addEventListener('visibilitychange', onVisible)
		return () => {
			source.close()
			if (timer) clearTimeout(timer)
			document.removeEventListener('visibilitychange', onVisible)
		}
	}, [url, revalidate])
}
