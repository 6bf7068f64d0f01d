import { CalendarPlus, Search } from '#app/components/icons.tsx'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { type EventTab, listUrl } from './list-url.ts'

/** What an empty tab says: nothing found for the search, no past event, no draft, nothing coming up. */
export function EmptyList(props: { tab: EventTab; query: string; action: ReactNode }) {
	const { t } = useTranslation()
	if (props.query) {
		return (
			<EmptyState
				icon={<Search aria-hidden="true" />}
				title={t('admin.events.empty.searchTitle', { query: props.query })}
				body={t('admin.events.empty.searchBody')}
				action={
					<Link to={listUrl({ tab: props.tab })} className={buttonClasses('secondary')}>
						{t('admin.events.search.clear')}
					</Link>
				}
			/>
		)
	}
	if (props.tab === 'past') {
		return <EmptyState title={t('admin.events.empty.pastTitle')} body={t('admin.events.empty.pastBody')} />
	}
	if (props.tab === 'drafts') {
		return <EmptyState title={t('admin.events.empty.draftsTitle')} body={t('admin.events.empty.draftsBody')} action={props.action} />
	}
	return (
		<EmptyState
			icon={<CalendarPlus aria-hidden="true" />}
			title={t('admin.events.empty.upcomingTitle')}
			body={t('admin.events.empty.upcomingBody')}
			action={props.action}
		/>
	)
}
