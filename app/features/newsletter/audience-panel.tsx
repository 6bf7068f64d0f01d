import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { Checkbox } from '#app/components/ui/checkbox.tsx'
import { FieldError } from '#app/components/ui/field-error.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import type { AudienceView } from './announce.server.ts'

const AUDIENCE_PATH = '/dashboard/admin/newsletter/audience'

/**
 * An announcement's audience on the compose screen: the fans within the radius of the venue (a
 * slider, keyboard too), optionally with those who gave no town, and how many that is, counted by
 * the server as the radius moves. Without JavaScript the count is the one of the last save.
 */
export function AudiencePanel(props: { view: AudienceView; error?: string | null; sentTo?: number | null }) {
	const { t } = useTranslation()
	const { view } = props
	const [radius, setRadius] = useState(view.radiusKm)
	const [withoutTown, setWithoutTown] = useState(view.includeNoTown)
	const counter = useFetcher<{ count: number | null }>({ key: `audience-${view.eventId}` })
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	useEffect(() => () => clearTimeout(timer.current), [])
	function recount(km: number, noTown: boolean) {
		clearTimeout(timer.current)
		timer.current = setTimeout(() => {
			const query = new URLSearchParams({ audienceEvent: view.eventId, radiusKm: String(km) })
			if (noTown) query.set('includeNoTown', 'on')
			void counter.load(`${AUDIENCE_PATH}?${query}`)
		}, 150)
	}
	const count = counter.data?.count ?? view.count
	return (
		<section aria-labelledby="audience-titre" className="flex flex-col gap-4 rounded-card border border-line p-4">
			<h2 id="audience-titre" className="text-base font-semibold">
				{t('newsletter.announce.audience.title')}
			</h2>
			<input type="hidden" name="audienceEvent" value={view.eventId} />
			{view.placed ? (
				<>
					<div className="flex flex-col gap-2">
						<label htmlFor="radiusKm" className="flex flex-wrap justify-between gap-2 text-sm font-semibold">
							{t('newsletter.announce.audience.radius', { venue: view.venue })}
							<output htmlFor="radiusKm" className="font-normal tabular-nums">
								{t('newsletter.announce.audience.km', { km: radius })}
							</output>
						</label>
						<input
							id="radiusKm"
							name="radiusKm"
							type="range"
							min={view.limits.min}
							max={view.limits.max}
							step={10}
							value={radius}
							aria-invalid={props.error ? true : undefined}
							aria-describedby={props.error ? 'radiusKm-erreur' : undefined}
							onChange={(event) => {
								const km = Number(event.currentTarget.value)
								setRadius(km)
								recount(km, withoutTown)
							}}
							className="min-h-11 w-full accent-accent"
						/>
						{props.error ? <FieldError id="radiusKm-erreur" errors={[props.error]} /> : null}
					</div>
					<Checkbox
						name="includeNoTown"
						checked={withoutTown}
						onChange={(event) => {
							setWithoutTown(event.currentTarget.checked)
							recount(radius, event.currentTarget.checked)
						}}
						label={t('newsletter.announce.audience.includeNoTown')}
					/>
				</>
			) : (
				<p className="text-sm" role="note">
					{t('newsletter.announce.audience.unplaced', { venue: view.venue })}
				</p>
			)}
			<p className="text-sm" aria-live="polite">
				{props.sentTo != null
					? t('newsletter.announce.audience.sentTo', { count: props.sentTo })
					: t('newsletter.announce.audience.count', { count })}
				{counter.state !== 'idle' ? ` ${t('newsletter.announce.audience.counting')}` : null}
			</p>
		</section>
	)
}
