import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { TownField } from '#app/features/towns/town-field.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import type { SortedForTown } from './sort-by-town.server.ts'

/**
 * « Les plus proches de… »: a plain GET form on /events (`?ville=`), so the sorted list is a link
 * anyone can share, works without JavaScript, and keeps nothing; the list without it stays the one
 * every visitor gets from the page cache.
 */
export function SortByTown(props: { nearTown: SortedForTown | null }) {
	const { t } = useTranslation()
	const near = props.nearTown
	return (
		<Form method="get" action="/events" className="mt-10 flex max-w-xl flex-col gap-3">
			<TownField
				key={near?.typed ?? ''}
				name="ville"
				defaultValue={near?.typed}
				problem={near?.problem}
				label={t('events.near.label')}
				hint={t('events.near.hint')}
				optional={false}
			/>
			<div className="flex flex-wrap items-center gap-4">
				<Button type="submit" variant="secondary">
					{t('events.near.submit')}
				</Button>
				{near ? (
					<Link to="/events" className={linkClasses()}>
						{t('events.near.clear')}
					</Link>
				) : null}
			</div>
		</Form>
	)
}
