import { clsx } from 'clsx'
import { Monitor, Smartphone } from '#app/components/icons.tsx'
import { useState } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'

/**
 * The campaign as recipients will see it, rendered on the server by the mail's own template and
 * shown in a sandboxed frame (no script runs in it), at a desktop or a phone width.
 */
export function CampaignPreview(props: { html: string; loading?: boolean }) {
	const { t } = useTranslation()
	const [width, setWidth] = useState<'desktop' | 'phone'>('desktop')
	const option = (value: 'desktop' | 'phone', label: string, Icon: typeof Monitor) => (
		<button
			type="button"
			aria-pressed={width === value}
			onClick={() => setWidth(value)}
			className={clsx(
				'inline-flex min-h-9 items-center gap-2 rounded-control px-3 text-sm font-semibold pointer-coarse:min-h-11',
				width === value ? 'bg-fg text-canvas' : 'text-muted hover:text-fg',
			)}
		>
			<Icon aria-hidden="true" className="size-4" />
			{label}
		</button>
	)
	return (
		<div className="flex flex-col gap-3">
			<div className="flex flex-wrap items-center justify-between gap-3">
				<p className="text-sm font-semibold" id="apercu-titre">
					{t('newsletter.admin.compose.preview')}
					{props.loading ? <span className="ml-2 font-normal text-muted">{t('newsletter.admin.compose.previewUpdating')}</span> : null}
				</p>
				<div
					role="group"
					aria-label={t('newsletter.admin.compose.previewWidth')}
					className="inline-flex gap-1 rounded-control border border-line p-1"
				>
					{option('desktop', t('newsletter.admin.compose.desktop'), Monitor)}
					{option('phone', t('newsletter.admin.compose.phone'), Smartphone)}
				</div>
			</div>
			<div className="overflow-x-auto rounded-card border border-line bg-[#f4f3ef] p-3">
				<iframe
					title={t('newsletter.admin.compose.previewFrame')}
					sandbox=""
					srcDoc={props.html}
					className={clsx(
						'mx-auto block h-[38rem] rounded-sm bg-white transition-[width] duration-200',
						width === 'phone' ? 'w-[375px]' : 'w-full min-w-[600px]',
					)}
				/>
			</div>
		</div>
	)
}
