import { clsx } from 'clsx'
import { useTranslation } from '#app/i18n/react.tsx'
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
				'fixed inset-0 z-50 grid place-items-center',
				props.overlay ? 'bg-canvas/80 backdrop-blur-sm' : 'bg-canvas',
				props.delayed && 'animate-[splash-in_240ms_ease-out_400ms_both]',
			)}
		>
			<div className="flex flex-col items-center gap-5">
				<Logo
					name={name}
					logoUrl={root?.band.logoUrl ?? null}
					decorative
					className="size-20 animate-pulse-logo motion-reduce:animate-none sm:size-24"
				/>
				<span className="sr-only">{t('common.loading')}</span>
			</div>
		</div>
	)
}
