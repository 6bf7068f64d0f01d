import { clsx } from 'clsx'
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { NavLink } from 'react-router'

const tabClasses = (selected: boolean) =>
	clsx(
		'relative inline-flex min-h-11 shrink-0 items-center gap-2 px-3 text-sm font-medium whitespace-nowrap transition-colors duration-150',
		'after:absolute after:inset-x-2 after:-bottom-px after:h-0.5 after:rounded-full',
		selected ? 'text-fg after:bg-accent' : 'text-muted hover:text-fg',
	)

const listClasses = 'flex gap-1 overflow-x-auto border-b border-line [scrollbar-width:none]'

export interface TabItem {
	id: string
	label: ReactNode
	panel: ReactNode
}

/**
 * Tabs within one page (WAI-ARIA tabs pattern): arrow keys move between tabs, Home and End jump to
 * the ends, and only the selected tab is in the Tab order.
 */
export function Tabs(props: { label: string; items: TabItem[]; defaultTab?: string; className?: string; onChange?: (id: string) => void }) {
	const base = useId()
	const [selected, setSelected] = useState(props.defaultTab ?? props.items[0]?.id)
	const tabs = useRef<Array<HTMLButtonElement | null>>([])

	function select(index: number) {
		const item = props.items[index]
		if (!item) return
		setSelected(item.id)
		props.onChange?.(item.id)
		tabs.current[index]?.focus()
	}

	function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
		const current = props.items.findIndex((item) => item.id === selected)
		const last = props.items.length - 1
		const next =
			event.key === 'ArrowRight'
				? (current + 1) % (last + 1)
				: event.key === 'ArrowLeft'
					? (current - 1 + last + 1) % (last + 1)
					: event.key === 'Home'
						? 0
						: event.key === 'End'
							? last
							: null
		if (next === null) return
		event.preventDefault()
		select(next)
	}

	return (
		<div className={props.className}>
			<div role="tablist" aria-label={props.label} className={listClasses} onKeyDown={onKeyDown}>
				{props.items.map((item, index) => {
					const isSelected = item.id === selected
					return (
						<button
							key={item.id}
							ref={(element) => {
								tabs.current[index] = element
							}}
							type="button"
							role="tab"
							id={`${base}-tab-${item.id}`}
							aria-selected={isSelected}
							aria-controls={`${base}-panel-${item.id}`}
							tabIndex={isSelected ? 0 : -1}
							onClick={() => select(index)}
							className={tabClasses(isSelected)}
						>
							{item.label}
						</button>
					)
				})}
			</div>
			{props.items.map((item) => (
				<div
					key={item.id}
					role="tabpanel"
					id={`${base}-panel-${item.id}`}
					aria-labelledby={`${base}-tab-${item.id}`}
					hidden={item.id !== selected}
					tabIndex={0}
					className="pt-6 focus-visible:outline-offset-4"
				>
					{item.panel}
				</div>
			))}
		</div>
	)
}

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
