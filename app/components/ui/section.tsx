import type { ReactNode } from 'react'
import { Card, CardTitle } from './card.tsx'

/**
 * One part of a long form page (the event editor, the settings): what it is about on the left
 * (above on a phone), its fields or controls on the right.
 */
export function Section(props: { id: string; title: ReactNode; description: ReactNode; children: ReactNode; tone?: 'danger' }) {
	return (
		<Card as="section" id={props.id} aria-labelledby={`${props.id}-titre`} className="scroll-mt-6">
			<div className="grid gap-x-10 gap-y-5 lg:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
				<div>
					<CardTitle id={`${props.id}-titre`}>
						{props.tone === 'danger' ? <span className="text-danger">{props.title}</span> : props.title}
					</CardTitle>
					<p className="mt-1.5 text-sm text-muted">{props.description}</p>
				</div>
				<div className="min-w-0">{props.children}</div>
			</div>
		</Card>
	)
}
