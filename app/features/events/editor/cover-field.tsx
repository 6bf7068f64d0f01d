import { useEffect, useState } from 'react'
import { ImageUpload } from '#app/components/image-upload.tsx'
import type { MediaStatus } from '#app/features/media/rules.ts'
import { useTranslation } from '#app/i18n/react.tsx'

const COVER_STATUS_URL = '/dashboard/admin/media/'

/**
 * The cover: the upload field, starting from the stored image. A cover still being prepared (saved
 * right after its upload) keeps its id in the form and is followed until it is ready, so that the
 * next save never drops it.
 */
export function CoverField(props: { initial: MediaStatus | null; errors?: string[]; onChange: () => void }) {
	const { t } = useTranslation()
	const [status, setStatus] = useState(props.initial)
	const processingId = status?.status === 'processing' ? status.id : null

	useEffect(() => {
		if (!processingId) return
		let cancelled = false
		let timer: ReturnType<typeof setTimeout>
		const check = async () => {
			try {
				const response = await fetch(COVER_STATUS_URL + processingId, { headers: { Accept: 'application/json' }, cache: 'no-store' })
				if (response.ok) {
					const next = (await response.json()) as MediaStatus
					if (!cancelled) setStatus(next)
					if (next.status !== 'processing') return
				}
			} catch {
				// A network hiccup: ask again at the next tick.
			}
			if (!cancelled) timer = setTimeout(check, 1500)
		}
		timer = setTimeout(check, 1000)
		return () => {
			cancelled = true
			clearTimeout(timer)
		}
	}, [processingId])

	if (status?.status === 'processing') {
		return (
			<div className="flex flex-col gap-2">
				<span className="text-sm font-semibold text-fg">{t('admin.events.fields.cover')}</span>
				<div className="grid aspect-video w-full max-w-xl place-items-center rounded-control border border-line bg-raised">
					<p role="status" className="text-sm text-muted">
						{t('media.upload.processing')} {t('media.upload.percent', { percent: status.progress })}
					</p>
				</div>
				<input type="hidden" name="coverId" value={status.id} />
			</div>
		)
	}
	const ready = status?.status === 'ready' && status.image ? { ...status.image, id: status.id } : null
	return (
		<div className="flex flex-col gap-3">
			{status?.status === 'failed' ? <p className="text-sm text-muted">{t('admin.events.editor.coverFailed')}</p> : null}
			<ImageUpload
				key={ready?.id ?? 'vide'}
				name="coverId"
				kind="cover"
				label={t('admin.events.fields.cover')}
				initial={ready}
				errors={props.errors}
				sizes="(min-width: 64rem) 36rem, 100vw"
				onChange={props.onChange}
			/>
		</div>
	)
}
