import { createContext, useContext } from 'react'

const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider

/** The CSP nonce of this document's scripts (empty in the browser, which hides it). */
export function useNonce() {
	return useContext(NonceContext)
}
