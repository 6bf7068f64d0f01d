import { clsx } from 'clsx'
import { ImageIcon, Trash2, Upload } from '#app/components/icons.tsx'
import { useEffect, useId, useRef, useState, type ChangeEvent, type ReactNode } from 'react'
import { ResponsiveImage } from '#app/components/responsive-image.tsx'
import { buttonClasses, Button } from '#app/components/ui/button.tsx'
import { FieldError } from '#app/components/ui/field-error.tsx'
import type { PublicImage } from '#app/features/media/public-image.ts'
import {
	ACCEPTED_TYPES,
	MAX_UPLOAD_BYTES,
	megabytes,
	UPLOAD_URL,
	type MediaKind,
	type MediaStatus,
	type UploadAccepted,
} from '#app/features/media/rules.ts'
import { useTranslation } from '#app/i18n/react.tsx'

export type ImageUploadValue = { id: string; image: PublicImage | null } | null
export type ImageUploadPhase = 'idle' | 'uploading' | 'processing' | 'ready' | 'failed'

export interface ImageUploadProps {
	/** The hidden input's name: it holds the media id (empty when there is no image), e.g. `coverId`. */
	name: string
	kind: MediaKind
	/** The field's visible label, e.g. « Affiche ». */
	label: string
	/** The image the form starts with. */
	initial?: (PublicImage & { id: string }) | null
	/** Shown under the control; by default the accepted formats and the size limit. */
	hint?: string
	/** Errors the server gave for this field (from the enclosing form's last answer). */
	errors?: string[] | null
	/** The `sizes` of the preview; by default the width of the frame. */
	sizes?: string
	/** A « Retirer l’image » button that empties the hidden input (default: true). */
	removable?: boolean
	/** Called when a new image is ready, and with null when it is removed. */
	onChange?: (value: { id: string; image: PublicImage } | null) => void
	/** Told of each phase: a form may wait for `ready` before it lets the user save. */
	onPhaseChange?: (phase: ImageUploadPhase) => void
	/** More controls on the buttons' row (e.g. a form of its own that removes the image on the server). */
	actions?: ReactNode
	className?: string
}

/** How long processing may take before the field gives up polling (the job goes on). */
const POLL_LIMIT_MS = 5 * 60_000
const POLL_EVERY_MS = 1_000

/**
 * An image field: a file input (any keyboard, any screen reader), a preview of the chosen file,
 * its upload with visible progress, then the server's processing (polled every second) and the
 * finished image, shown as pages will show it. It fills a hidden input named `name` with the media
 * id, so it works inside any form (it never submits one itself). Errors are shown in French next
 * to the field. Files too heavy are refused before sending; the server checks everything again.
 */
export function ImageUpload(props: ImageUploadProps) {
	const { t } = useTranslation()
	const { kind, onChange, onPhaseChange } = props
	const baseId = useId()
	const inputId = `${baseId}-file`
	const labelId = `${baseId}-label`
	const hintId = `${baseId}-hint`
	const errorId = `${baseId}-error`
	const statusId = `${baseId}-status`
	const max = MAX_UPLOAD_BYTES[kind]

	const [value, setValue] = useState<ImageUploadValue>(props.initial ? { id: props.initial.id, image: props.initial } : null)
	const [phase, setPhaseState] = useState<ImageUploadPhase>(props.initial ? 'ready' : 'idle')
	const [percent, setPercent] = useState(0)
	const [preview, setPreview] = useState<string | null>(null)
	const [error, setError] = useState<string | null>(null)
	const [hydrated, setHydrated] = useState(false)
	/** A new image has just become ready: say so once. */
	const [justReady, setJustReady] = useState(false)
	const inputRef = useRef<HTMLInputElement>(null)
	// The work in flight: an upload to abort, a poll to stop (on unmount, or when another file is chosen).
	const work = useRef<{ xhr?: XMLHttpRequest; timer?: ReturnType<typeof setTimeout>; cancelled: boolean } | null>(null)

	useEffect(() => setHydrated(true), [])
	// The image given from outside changed (the page's data was loaded again, e.g. after a removal):
	// the field shows it, unless it is busy with a file of its own or already shows that image.
	const initialId = props.initial?.id ?? null
	const lastInitial = useRef(initialId)
	// Syncing from a prop is what this effect is for, and only when the image's id changes (the ref
	// guards it): the other values it reads are those of that render, on purpose.
	// oxlint-disable-next-line react/set-state-in-effect
	useEffect(() => {
		if (lastInitial.current === initialId) return
		lastInitial.current = initialId
		if (work.current || value?.id === initialId) return
		setValue(props.initial ? { id: props.initial.id, image: props.initial } : null)
		setPhaseState(props.initial ? 'ready' : 'idle')
		setJustReady(false)
		setError(null)
		// oxlint-disable-next-line react-hooks/exhaustive-deps
	}, [initialId])
	useEffect(() => () => stop(), [])
	useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview])

	function setPhase(next: ImageUploadPhase) {
		setPhaseState(next)
		setJustReady(false)
		onPhaseChange?.(next)
	}

	function stop() {
		const current = work.current
		if (!current) return
		current.cancelled = true
		current.xhr?.abort()
		if (current.timer) clearTimeout(current.timer)
		work.current = null
	}

	function failWith(message: string, previous: ImageUploadValue) {
		stop()
		setError(message)
		setValue(previous)
		setPreview(null)
		setPhase('failed')
	}

	function poll(statusUrl: string, previous: ImageUploadValue, started: number, job: NonNullable<typeof work.current>) {
		job.timer = setTimeout(async () => {
			if (job.cancelled) return
			let status: MediaStatus | null = null
			try {
				const response = await fetch(statusUrl, { headers: { Accept: 'application/json' }, cache: 'no-store' })
				if (response.ok) status = (await response.json()) as MediaStatus
				else if (response.status === 404 || response.status === 403) {
					return failWith(t('media.errors.notFound'), previous)
				}
			} catch {
				// A network hiccup: try again at the next tick.
			}
			if (job.cancelled) return
			if (status?.status === 'ready' && status.image) {
				const ready = { id: status.id, image: status.image }
				work.current = null
				setValue(ready)
				setPercent(100)
				setPreview(null)
				setPhase('ready')
				setJustReady(true)
				onChange?.(ready)
				return
			}
			if (status?.status === 'failed') return failWith(status.error ?? t('media.errors.processing'), previous)
			if (status) setPercent(status.progress)
			if (Date.now() - started > POLL_LIMIT_MS) return failWith(t('media.errors.timeout'), previous)
			poll(statusUrl, previous, started, job)
		}, POLL_EVERY_MS)
	}

	function upload(file: File) {
		stop()
		const previous = phase === 'ready' || phase === 'idle' ? value : null
		setError(null)
		if (file.size > max) {
			setPhase('failed')
			setError(t('media.errors.tooLarge', { max: megabytes(max) }))
			return
		}
		setPreview(URL.createObjectURL(file))
		setPercent(0)
		setPhase('uploading')
		const job: NonNullable<typeof work.current> = { cancelled: false }
		work.current = job
		const xhr = new XMLHttpRequest()
		job.xhr = xhr
		xhr.open('POST', UPLOAD_URL[kind])
		xhr.setRequestHeader('Accept', 'application/json')
		xhr.responseType = 'text'
		xhr.upload.onprogress = (event) => {
			if (event.lengthComputable) setPercent(Math.round((event.loaded / event.total) * 100))
		}
		xhr.onerror = () => failWith(t('media.errors.network'), previous)
		xhr.onload = () => {
			if (job.cancelled) return
			let body: Partial<UploadAccepted> & { error?: string } = {}
			try {
				body = JSON.parse(xhr.responseText) as typeof body
			} catch {
				// An HTML page (signed out, a proxy's error): the generic message below.
			}
			if (xhr.status !== 201 || !body.id || !body.statusUrl) {
				return failWith(body.error ?? t('media.errors.unavailable'), previous)
			}
			// The new image is the field's value from now on: saving the form while it is processed keeps it.
			setValue({ id: body.id, image: null })
			setPercent(body.progress ?? 0)
			setPhase('processing')
			poll(body.statusUrl, previous, Date.now(), job)
		}
		const form = new FormData()
		form.append('file', file)
		xhr.send(form)
	}

	function onFile(event: ChangeEvent<HTMLInputElement>) {
		const file = event.target.files?.[0]
		// The same file may be chosen again after a failure: let the input forget it.
		event.target.value = ''
		if (file) upload(file)
	}

	function remove() {
		stop()
		setValue(null)
		setPreview(null)
		setError(null)
		setPhase('idle')
		onChange?.(null)
		inputRef.current?.focus()
	}

	const busy = phase === 'uploading' || phase === 'processing'
	const errors = error ? [error] : (props.errors ?? [])
	const describedBy = [hintId, statusId, errors.length ? errorId : null].filter(Boolean).join(' ')
	const shown = busy ? null : value?.image
	const round = kind === 'avatar'
	const removable = (props.removable ?? true) && value !== null && !busy

	return (
		<div className={clsx('flex flex-col gap-2', props.className)} data-phase={phase}>
			<span id={labelId} className="text-sm font-semibold text-fg">
				{props.label}
			</span>
			<div className={clsx('flex gap-4', round ? 'flex-row items-center' : 'flex-col')}>
				<div
					className={clsx(
						'relative grid shrink-0 place-items-center overflow-hidden border border-line bg-raised text-muted',
						round ? 'size-24 rounded-full' : 'aspect-video w-full max-w-xl rounded-control',
					)}
				>
					{shown ? (
						<ResponsiveImage
							image={shown}
							sizes={props.sizes ?? (round ? '96px' : '(min-width: 40rem) 36rem, 100vw')}
							alt=""
							pictureClassName="block size-full"
							className="size-full object-cover"
						/>
					) : preview ? (
						<img src={preview} alt="" className={clsx('size-full object-cover', busy && 'opacity-70')} />
					) : (
						<ImageIcon aria-hidden="true" className={round ? 'size-8' : 'size-10'} />
					)}
					{busy ? (
						<div className="absolute inset-x-0 bottom-0 h-1.5 bg-canvas/70">
							<div className="h-full bg-accent transition-[width] duration-300" style={{ width: `${percent}%` }} />
						</div>
					) : null}
				</div>
				<div className="flex min-w-0 flex-col gap-2">
					<div className="flex flex-wrap items-center gap-2">
						<input
							ref={inputRef}
							id={inputId}
							type="file"
							accept={ACCEPTED_TYPES}
							className="peer sr-only"
							aria-labelledby={labelId}
							aria-describedby={describedBy}
							aria-invalid={errors.length ? true : undefined}
							disabled={!hydrated || busy}
							onChange={onFile}
						/>
						<label
							htmlFor={inputId}
							className={buttonClasses(
								'secondary',
								'sm',
								'cursor-pointer peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-focus peer-disabled:cursor-not-allowed peer-disabled:opacity-55',
							)}
						>
							<Upload aria-hidden="true" />
							{value ? t('media.upload.replace') : t('media.upload.choose')}
						</label>
						{removable ? (
							<Button variant="ghost" size="sm" onClick={remove}>
								<Trash2 aria-hidden="true" />
								{t('media.upload.remove')}
							</Button>
						) : null}
						{busy ? null : props.actions}
					</div>
					<p id={hintId} className="text-sm text-muted">
						{props.hint ?? t('media.upload.hint', { max: megabytes(max) })}
					</p>
				</div>
			</div>
			<div id={statusId} role="status" className={busy || justReady ? 'flex flex-wrap items-center gap-x-2 text-sm' : 'sr-only'}>
				{phase === 'uploading' ? t('media.upload.uploading') : phase === 'processing' ? t('media.upload.processing') : null}
				{justReady && !busy ? t('media.upload.ready') : null}
				{busy ? (
					<span aria-hidden="true" className="font-semibold tabular-nums">
						{t('media.upload.percent', { percent })}
					</span>
				) : null}
			</div>
			{busy ? (
				<progress
					max={100}
					value={percent}
					aria-label={phase === 'uploading' ? t('media.upload.uploadProgress') : t('media.upload.processingProgress')}
					className="sr-only"
				/>
			) : null}
			{errors.length ? <FieldError id={errorId} errors={errors} /> : null}
			<input type="hidden" name={props.name} value={value?.id ?? ''} />
		</div>
	)
}
