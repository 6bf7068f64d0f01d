import type { MetaDescriptor } from 'react-router'

/*
 * The <title> and robots line of a page that is not for search engines (the member's and the
 * admin's pages, mailed links). A route's meta reads its loader data, which a refused POST or a
 * thrown error does not have: then no title is given, and the error page's own names the page,
 * instead of a first <title> reading « undefined ».
 */
export function privatePageMeta(title: string | undefined, ...extra: MetaDescriptor[]): MetaDescriptor[] {
	return [...(title ? [{ title }] : []), { name: 'robots', content: 'noindex' }, ...extra]
}
