import { getTextareaProps, type useForm } from '@conform-to/react'
import { clsx } from 'clsx'
import { useEffect, useMemo, useRef } from 'react'
import { useFetcher } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { EventFormInput } from '#app/features/events/forms.ts'
import { useTranslation } from '#app/i18n/react.tsx'

type DescriptionField = ReturnType<typeof useForm<EventFormInput>>[1]['description']

/** The Markdown text and its preview, rendered by the server (the browser never loads a Markdown library). */
export function DescriptionEditor(props: { field: DescriptionField; initialHtml: string; storedValue: string; max: number }) {
	const { t } = useTranslation()
	const fetcher = useFetcher<{ intent: 'preview'; html: string }>()
	const { submit } = fetcher
	const value = props.field.value ?? ''
	const previewed = useRef(props.storedValue)

	useEffect(() => {
		if (value === previewed.current) return
		const timer = setTimeout(() => {
			previewed.current = value
			void submit({ intent: 'preview', description: value }, { method: 'post', defaultShouldRevalidate: false })
		}, 400)
		return () => clearTimeout(timer)
	}, [value, submit])

	// The latest preview the server rendered, else the stored description's.
	const answer = fetcher.data
	const html = answer && 'html' in answer ? answer.html : props.initialHtml

	const length = useMemo(() => value.replace(/\r\n?/g, '\n').length, [value])
	const counterId = `${props.field.id}-compteur`
	return (
		<div className="grid gap-5 xl:grid-cols-2">
			<Field
				label={t('admin.events.fields.description')}
				optional={t('admin.events.optional')}
				hint={t('admin.events.fields.descriptionHint')}
				errors={props.field.errors}
			>
				{(control) => (
					<>
						<Textarea
							{...getTextareaProps(props.field)}
							{...control}
							aria-describedby={clsx(control['aria-describedby'], counterId)}
							rows={12}
							className="min-h-64 font-mono text-sm leading-relaxed"
						/>
						<p
							id={counterId}
							className={clsx('text-right text-xs tabular-nums', length > props.max ? 'font-semibold text-danger' : 'text-muted')}
						>
							{t('admin.events.fields.descriptionCount', {
								length: length.toLocaleString('fr-FR'),
								max: props.max.toLocaleString('fr-FR'),
							})}
						</p>
					</>
				)}
			</Field>
			<div className="flex min-w-0 flex-col gap-1.5">
				<p className="flex items-center gap-2 text-sm font-semibold text-fg">
					{t('admin.events.editor.preview')}
					{fetcher.state !== 'idle' ? <span className="font-normal text-muted">{t('admin.events.editor.previewUpdating')}</span> : null}
				</p>
				<div className="min-h-64 rounded-control border border-dashed border-line-strong/70 bg-canvas/40 px-4 py-3">
					{html ? (
						<div className="prose-site text-[0.9375rem]" dangerouslySetInnerHTML={{ __html: html }} />
					) : (
						<p className="text-sm text-muted">{t('admin.events.editor.previewEmpty')}</p>
					)}
				</div>
			</div>
		</div>
	)
}
