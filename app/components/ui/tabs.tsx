import { clsx } from 'clsx'
import type { ReactNode } from 'react'
import { NavLink } from '#app/components/nav-link.tsx'
import { RouteLink } from '#app/components/route-link.tsx'

const tabClasses = (selected: boolean) =>
	// The shared part is the `tab` class (styles/site.css).
	clsx('tab', selected ? 'text-fg after:bg-accent' : 'text-muted hover:text-fg')

/* Tabs wrap onto a second line on a narrow screen rather than hide off its edge (« Setlis… »). */
const listClasses = 'flex flex-wrap gap-x-1 border-b border-line'

/**
 * Tabs that are pages (each one a URL): a navigation landmark of links, the current one marked
 * with aria-current by the router. Works without JavaScript.
 */
export function NavTabs(props: { label: string; items: Array<{ to: string; label: ReactNode; end?: boolean }>; className?: string }) {
	return (
		<nav aria-label={props.label} className={props.className}>
			<ul className={listClasses}>
				{props.items.map((item) => (
					<li key={item.to} className="flex">
						<NavLink to={item.to} end={item.end} className={({ isActive }) => tabClasses(isActive)}>
							{item.label}
						</NavLink>
					</li>
				))}
			</ul>
		</nav>
	)
}

/**
 * Tabs that are views of one list (a query string each), with how many items each holds: the
 * current one is named by the page (`current`), since the router's own matching ignores the query.
 */
export function CountTabs(props: {
	label: string
	items: Array<{ id: string; to: string; label: string; count: number }>
	current: string
	className?: string
}) {
	return (
		<nav aria-label={props.label} className={props.className}>
			<ul className={listClasses}>
				{props.items.map((item) => {
					const current = item.id === props.current
					return (
						<li key={item.id} className="flex">
							<RouteLink to={item.to} aria-current={current ? 'page' : undefined} className={tabClasses(current)}>
								{item.label}
								<span className={clsx('rounded-badge px-1.5 text-xs tabular-nums', current ? 'bg-fg/10 text-fg' : 'bg-fg/6 text-muted')}>
									{item.count.toLocaleString('fr-FR')}
								</span>
							</RouteLink>
						</li>
					)
				})}
			</ul>
		</nav>
	)
}
