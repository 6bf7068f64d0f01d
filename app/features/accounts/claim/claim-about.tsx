import { Link } from 'react-router'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/**
 * /auth/claim without a link's mode (typed by hand, or a link cut short by a mail client): what
 * this page is for, and the ways to what the visitor probably wanted — sign in, a new password, a code.
 */
export function ClaimAbout(props: { signedIn: boolean }) {
	const { t } = useTranslation()
	return (
		<div className="mt-4 flex flex-col gap-4">
			<p className="text-muted">{t('auth.claim.about.body')}</p>
			<ul className="list-disc pl-5 text-sm text-muted marker:text-line-strong">
				<li>{t('auth.claim.about.verify')}</li>
				<li>{t('auth.claim.about.reset')}</li>
				<li>{t('auth.claim.about.newsletter')}</li>
				<li>{t('auth.claim.about.reward')}</li>
			</ul>
			<p className="text-muted">{t('auth.claim.about.incomplete')}</p>
			<div className="mt-2 flex flex-col gap-3">
				{props.signedIn ? (
					<Link to="/dashboard" className={buttonClasses('primary', 'lg', 'w-full')}>
						{t('auth.claim.about.dashboard')}
					</Link>
				) : (
					<Link to="/auth/signin" className={buttonClasses('primary', 'lg', 'w-full')}>
						{t('auth.claim.about.signin')}
					</Link>
				)}
				<Link to="/auth/forgot-password" className={buttonClasses('secondary', 'lg', 'w-full')}>
					{t('auth.claim.about.forgot')}
				</Link>
				<Link to="/redeem" className={buttonClasses('secondary', 'lg', 'w-full')}>
					{t('auth.claim.about.redeem')}
				</Link>
			</div>
		</div>
	)
}
