import { clsx } from 'clsx'
import type { ReactNode } from 'react'
import { NavLink } from 'react-router'

const tabClasses = (selected: boolean) =>
	clsx(
		'relative inline-flex min-h-11 shrink-0 items-center gap-2 px-3 text-sm font-medium whitespace-nowrap transition-colors duration-150',
		'after:absolute after:inset-x-2 after:-bottom-px after:h-0.5 after:rounded-full',
		selected ? 'text-fg after:bg-accent' : 'text-muted hover:text-fg',
	)

const listClasses = 'flex gap-1 overflow-x-auto border-b border-line [scrollbar-width:none]'

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
