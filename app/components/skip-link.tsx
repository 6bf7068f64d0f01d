import { useTranslation } from '#app/i18n/react.tsx'

/**
 * « Aller au contenu »: the first stop of the keyboard, visible only when focused. Focused, it shows
 * just below the header bar (which lies over the home page's poster), never over the logo. Its
 * padding is restated on focus: `not-sr-only` sets it back to 0.
 */
export function SkipLink(props: { target?: string }) {
	const { t } = useTranslation()
	return (
		<a
			href={`#${props.target ?? 'contenu'}`}
			className="sr-only z-[70] rounded-control bg-accent px-4 py-3 font-semibold text-on-accent focus:not-sr-only focus:fixed focus:top-[4.75rem] focus:left-3 focus:px-4 focus:py-3"
		>
			{t('common.skipToContent')}
		</a>
	)
}
