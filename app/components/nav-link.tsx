import type { ComponentProps } from 'react'
import { useLocation } from 'react-router'
import { RouteLink } from './route-link.tsx'

/*
 * A link to a section of the site, marked as the current page (`aria-current="page"`, and
 * `isActive` for its classes) when the address is that section or a page under it (`end`: that
 * section only). The same rule as React Router's NavLink, which also handles relative paths,
 * pending navigations and view transitions, none of which these links use, and resolves its path
 * four times per render to do so: with three of them on every page of the signed-in area, some
 * 4 % of the dashboard's CPU. Paths here are absolute, so nothing needs resolving; the link itself
 * is a RouteLink (./route-link.tsx).
 */

type NavLinkProps = Omit<ComponentProps<'a'>, 'href' | 'className'> & {
	/** An absolute path (`/dashboard/settings`). */
	to: string
	/** Current only at this very address, not under it. */
	end?: boolean
	className?: string | ((state: { isActive: boolean }) => string)
}

export function NavLink({ to, end = false, className, ...props }: NavLinkProps) {
	const isActive = isCurrent(useLocation().pathname, to, end)
	return (
		<RouteLink
			{...props}
			to={to}
			aria-current={isActive ? 'page' : undefined}
			className={typeof className === 'function' ? className({ isActive }) : className}
		/>
	)
}

/** React Router's rule, case-insensitive as its routes: this path, or (unless `end`) one under it. */
export function isCurrent(pathname: string, to: string, end: boolean): boolean {
	const here = pathname.toLowerCase()
	const target = to.toLowerCase()
	// `/` is current at `/` alone; a target written with a trailing slash counts without it.
	const boundary = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length
	return here === target || (!end && here.startsWith(target) && here.charAt(boundary) === '/')
}
