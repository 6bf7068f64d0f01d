import { createContext, useContext, useState } from 'react'

/*
 * The id of the request that rendered this document (X-Request-Id, in every log line of it), so
 * that an error page can show a reference the band can look up in the logs. The server provides
 * it (entry.server.tsx); in the browser, the error page rendered by the server is taken over with
 * the reference it already shows. An error met later in the browser has no reference of its own.
 */
const RequestIdContext = createContext<string | undefined>(undefined)

export const RequestIdProvider = RequestIdContext.Provider

const ATTRIBUTE = 'data-request-id'

export function useErrorReference(): { id: string | undefined; attribute: { [ATTRIBUTE]?: string } } {
	const fromServer = useContext(RequestIdContext)
	const [id] = useState(
		() =>
			fromServer ??
			(typeof document === 'undefined' ? undefined : (document.querySelector(`[${ATTRIBUTE}]`)?.getAttribute(ATTRIBUTE) ?? undefined)),
	)
	return { id, attribute: id ? { [ATTRIBUTE]: id } : {} }
}
