import { clsx } from 'clsx'
import { useTranslation } from 'react-i18next'
import { useRouteLoaderData } from 'react-router'
import { Logo } from './logo.tsx'

type RootData = { band: { name: string; logoUrl: string | null } }

/**
 * The full-screen splash with the pulsing logo. `delayed` waits a moment before appearing, so that
 * a quick navigation never flashes it; under reduced motion the logo stays still.
 */
export function Splash(props: { delayed?: boolean; overlay?: boolean }) {
	const { t } = useTranslation()
	const root = useRouteLoaderData('root') as RootData | undefined
	const name = root?.band.name ?? ''
	return (
		<div
			role="status"
			aria-live="polite"
			className={clsx(
				'fixed inset-0 z-50 grid place-items-center bg-ink-950',
				props.overlay && 'bg-ink-950/85 backdrop-blur-sm',
				props.delayed && 'animate-[splash-in_200ms_ease-out_400ms_both]',
			)}
		>
			<div className="flex flex-col items-center gap-4">
				<Logo name={name} logoUrl={root?.band.logoUrl ?? null} decorative className="size-24 animate-pulse-logo" />
				<span className="sr-only">{t('common.loading')}</span>
			</div>
		</div>
	)
}
