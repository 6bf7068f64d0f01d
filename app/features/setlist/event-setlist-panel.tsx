import { ExternalLink, Eye, EyeOff, ListMusic, Unlink } from '#app/components/icons.tsx'
import { useEffect, useId } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { FieldError } from '#app/components/ui/field-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/*
 * The event's setlist, in the event editor: which setlist this show has (choose one of the
 * library's, or none), a link to build it, and its publication on the event's page. Self-contained:
 * it reads and writes through /dashboard/admin/setlist/event/:eventId with its own fetcher, outside
 * the editor's form, so the editor only places it.
 */

interface PanelState {
	current: { id: string; name: string; published: boolean } | null
	choices: Array<{ id: string; name: string; eventTitle: string | null }>
	error?: string
}

export function EventSetlistPanel(props: { eventId: string }) {
	const { t } = useTranslation()
	const endpoint = `/dashboard/admin/setlist/event/${props.eventId}`
	const reader = useFetcher<PanelState>()
	const writer = useFetcher<PanelState>()
	const selectId = useId()
	useEffect(() => {
		if (reader.state === 'idle' && !reader.data) void reader.load(endpoint)
		// Loads once per event: the fetcher's own state changing must not load it again.
		// oxlint-disable-next-line react-hooks/exhaustive-deps
	}, [endpoint])
	const state = writer.data ?? reader.data
	// Sent without revalidating the editor's own data: what is typed in the event's form stays.
	const send = (fields: Record<string, string>) =>
		void writer.submit(fields, { method: 'post', action: endpoint, defaultShouldRevalidate: false })
	const busy = writer.state !== 'idle'
	return (
		<Card as="section" id="setlist" aria-labelledby="setlist-titre" className="mt-5 scroll-mt-6">
			<div className="grid gap-x-10 gap-y-5 lg:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]">
				<div>
					<CardTitle id="setlist-titre">{t('setlist.panel.title')}</CardTitle>
					<p className="mt-1.5 text-sm text-muted">{t('setlist.panel.description')}</p>
				</div>
				<div className="min-w-0" aria-busy={!state || busy}>
					{!state ? (
						<p className="text-sm text-muted">{t('setlist.panel.loading')}</p>
					) : state.current ? (
						<div className="flex flex-col gap-3">
							<p className="flex flex-wrap items-center gap-2">
								<ListMusic aria-hidden="true" className="size-4 text-muted" />
								<a href={`/dashboard/admin/setlist/${state.current.id}`} className={linkClasses('default', 'font-semibold')}>
									{state.current.name}
								</a>
								<span className="text-sm text-muted">
									{state.current.published ? t('setlist.panel.isPublished') : t('setlist.panel.isDraft')}
								</span>
							</p>
							<div className="flex flex-wrap gap-2">
								{state.current.published ? (
									<Button variant="secondary" size="sm" disabled={busy} onClick={() => send({ intent: 'unpublish' })}>
										<EyeOff aria-hidden="true" />
										{t('setlist.event.unpublish')}
									</Button>
								) : (
									<Button size="sm" disabled={busy} onClick={() => send({ intent: 'publish' })}>
										<Eye aria-hidden="true" />
										{t('setlist.event.publish')}
									</Button>
								)}
								<Button variant="ghost" size="sm" disabled={busy} onClick={() => send({ intent: 'detach' })}>
									<Unlink aria-hidden="true" />
									{t('setlist.panel.detach')}
								</Button>
								<a
									href={`/dashboard/admin/setlist/${state.current.id}/print`}
									target="_blank"
									rel="noopener"
									className={linkClasses('default', 'inline-flex items-center gap-1 self-center text-sm')}
								>
									{t('setlist.builder.print')}
									<ExternalLink aria-hidden="true" className="size-3.5" />
									<span className="sr-only">{t('setlist.newTab')}</span>
								</a>
							</div>
							<p className="text-xs text-muted">{t('setlist.event.publishHint')}</p>
						</div>
					) : (
						<form
							className="flex flex-col gap-2"
							onSubmit={(e) => {
								e.preventDefault()
								send({ intent: 'attach', setlistId: String(new FormData(e.currentTarget).get('setlistId') ?? '') })
							}}
						>
							<label htmlFor={selectId} className="text-sm font-semibold">
								{t('setlist.panel.choose')}
							</label>
							{state.choices.length === 0 ? (
								<p className="text-sm text-muted">
									{t('setlist.panel.none')}{' '}
									<a href="/dashboard/admin/setlist" className={linkClasses('default')}>
										{t('setlist.panel.create')}
									</a>
								</p>
							) : (
								<div className="flex flex-wrap gap-2">
									<Select
										id={selectId}
										name="setlistId"
										required
										className="min-w-0 flex-1 basis-56"
										aria-describedby={state.error ? `${selectId}-erreur` : undefined}
									>
										<option value="">{t('setlist.panel.placeholder')}</option>
										{state.choices.map((choice) => (
											<option key={choice.id} value={choice.id}>
												{choice.name}
												{choice.eventTitle ? ` — ${t('setlist.panel.usedBy', { title: choice.eventTitle })}` : ''}
											</option>
										))}
									</Select>
									<Button type="submit" variant="secondary" disabled={busy}>
										{t('setlist.event.attach')}
									</Button>
								</div>
							)}
						</form>
					)}
					{state?.error ? <FieldError id={`${selectId}-erreur`} errors={[state.error]} /> : null}
				</div>
			</div>
		</Card>
	)
}
