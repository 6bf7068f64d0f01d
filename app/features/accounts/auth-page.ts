import type { MetaDescriptor } from 'react-router'
import { privatePageMeta } from '#app/features/site/page-meta.ts'

/*
 * The sign-in and sign-up pages' <head>: their title and introduction, kept out of search engines.
 * Their loaders give both (auth-page.server.ts).
 */
export function authPageMeta(data: { title: string; description: string } | undefined): MetaDescriptor[] {
	return privatePageMeta(data?.title, ...(data ? [{ name: 'description', content: data.description }] : []))
}
