import { Download, ExternalLink } from '#app/components/icons.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { formatDay } from '#app/platform/time-zone.ts'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'

export interface UnlockedData {
	campaignId: string
	name: string
	messageHtml: string
	links: { label: string; url?: string }[]
	files: { id: string; name: string; size: number; href?: string }[]
	grantedAt?: string
	teaser?: boolean
}

/** « 4,2 Mo », « 830 ko » */
export function formatSize(bytes: number): string {
	const format = (value: number, unit: string) =>
		`${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: value < 10 ? 1 : 0 }).format(value)}\u00a0${unit}`
	if (bytes >= 1024 ** 3) return format(bytes / 1024 ** 3, 'Go')
	if (bytes >= 1024 ** 2) return format(bytes / 1024 ** 2, 'Mo')
	return format(Math.max(1, bytes / 1024), 'ko')
}

/**
 * What a campaign unlocks: its message, its links and its files. Files are download buttons when
 * they come with a link (a member's « Mes contenus »), a plain list otherwise (a preview).
 */
export function UnlockedView(props: { unlocked: UnlockedData; headingLevel?: 'h2' | 'h3' }) {
	const { t } = useTranslation()
	const { unlocked } = props
	const Heading = props.headingLevel ?? 'h2'
	return (
		<article className="flex flex-col gap-4">
			<header>
				<Heading className="text-xl font-semibold tracking-tight text-fg">{unlocked.name}</Heading>
				{unlocked.grantedAt ? (
					<p className="text-sm text-muted">{t('codes.unlocked.grantedOn', { date: formatDay(unlocked.grantedAt) })}</p>
				) : null}
			</header>
			{unlocked.messageHtml ? <div className="prose-site" dangerouslySetInnerHTML={{ __html: unlocked.messageHtml }} /> : null}
			{unlocked.files.length > 0 ? (
				<div>
					<p className="eyebrow mb-2 text-muted">{t('codes.unlocked.files')}</p>
					<ul className="flex flex-col gap-2">
						{unlocked.files.map((file) => (
							<li key={file.id} className="flex flex-wrap items-center justify-between gap-3 rounded-control border border-line px-4 py-3">
								<span className="min-w-0 break-words">
									<span className="font-medium text-fg">{file.name}</span>{' '}
									<span className="text-sm whitespace-nowrap text-muted">{formatSize(file.size)}</span>
								</span>
								{file.href ? (
									<a href={file.href} className={buttonClasses('secondary', 'sm')} download={file.name} rel="nofollow">
										<Download aria-hidden="true" />
										<span className="sr-only">{t('codes.unlocked.download', { name: file.name })}</span>
										<span aria-hidden="true">{t('codes.unlocked.downloadShort')}</span>
									</a>
								) : null}
							</li>
						))}
					</ul>
				</div>
			) : null}
			{unlocked.links.length > 0 ? (
				<div>
					<p className="eyebrow mb-2 text-muted">{t('codes.unlocked.links')}</p>
					<ul className="flex flex-col gap-1.5">
						{unlocked.links.map((link, index) =>
							link.url ? (
								<li key={index}>
									<a href={link.url} className={linkClasses('default', 'inline-flex items-center gap-1.5')} rel="noopener noreferrer">
										{link.label}
										<ExternalLink aria-hidden="true" className="size-4" />
									</a>
								</li>
							) : (
								<li key={index} className="font-medium text-fg">
									{link.label}
								</li>
							),
						)}
					</ul>
				</div>
			) : null}
			{unlocked.teaser ? <p className="text-sm text-muted">{t('codes.unlocked.teaser')}</p> : null}
		</article>
	)
}
