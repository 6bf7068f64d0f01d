import { isRouteErrorResponse, Link, useRouteLoaderData } from 'react-router'
import { ArrowLeft } from './icons.tsx'
import { useErrorReference } from './request-id.tsx'
import { buttonClasses } from './ui/button.tsx'
import { PageHeader } from './ui/page-header.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/**
 * An admin screen's own error, shown inside its layout (navigation kept) rather than the root's
 * full page: what was not found in the screen's words, the site's words for the rest, the
 * request's reference for a server error (no stack: the log has it), and a way back to the list.
 */
export function ScreenError(props: {
	error: unknown
	/** What a 404 says on this screen (« Cet événement n’existe pas »). */
	notFound: { title: string; body: string }
	back: { to: string; label: string }
}) {
	const { t } = useTranslation()
	const bandName = (useRouteLoaderData('root') as { band?: { name: string } } | undefined)?.band?.name
	const reference = useErrorReference()
	const status = isRouteErrorResponse(props.error) ? props.error.status : 500
	const [title, body] =
		status === 404
			? [props.notFound.title, props.notFound.body]
			: status === 403
				? [t('errors.forbidden.title'), t('errors.forbidden.body')]
				: status < 500
					? [t('errors.badRequest.title'), t('errors.badRequest.body')]
					: [t('errors.server.title'), t('errors.server.body')]
	return (
		<>
			<title>{bandName ? `${title} · ${bandName}` : title}</title>
			<PageHeader title={title} description={body} />
			{status >= 500 && reference.id ? (
				<p className="mt-4 text-sm text-muted" {...reference.attribute}>
					{t('errors.reference')}{' '}
					<code className="rounded-control bg-surface px-1.5 py-0.5 font-mono text-fg select-all">{reference.id}</code>
				</p>
			) : null}
			<Link to={props.back.to} className={buttonClasses('secondary', 'md', 'mt-6')}>
				<ArrowLeft aria-hidden="true" />
				{props.back.label}
			</Link>
		</>
	)
}
