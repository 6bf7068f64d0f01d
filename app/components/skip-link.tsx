import { useTranslation } from '#app/i18n/react.tsx'

/**
 * « Aller au contenu »: the first stop of the keyboard, visible only when focused. Focused, it takes
 * its own line at the top of the page (pushing the header down) rather than lying over the logo.
 */
export function SkipLink(props: { target?: string }) {
	const { t } = useTranslation()
	return (
		<a
			href={`#${props.target ?? 'contenu'}`}
			className="sr-only z-[70] rounded-control bg-accent px-4 py-3 font-semibold text-on-accent focus:not-sr-only focus:relative focus:mx-3 focus:mt-3 focus:block focus:w-fit"
		>
			{t('common.skipToContent')}
		</a>
	)
}
