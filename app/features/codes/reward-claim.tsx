import { Form, Link, useNavigation } from 'react-router'
import { useTranslation } from '#app/i18n/react.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { UnlockedView, type UnlockedData } from './unlocked-view.tsx'

/** The reward mode of /auth/claim: what the reserved code unlocks, and how to keep it. */
export function RewardClaim(props: { state: string; reward: UnlockedData | null; here: string; signedIn: boolean }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	if (props.state !== 'form' || !props.reward) {
		return (
			<div className="mt-4">
				<p className="text-muted">{t('codes.claim.invalid')}</p>
				<Link to="/redeem" className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
					{t('codes.claim.again')}
				</Link>
			</div>
		)
	}
	const back = new URLSearchParams({ redirectTo: props.here })
	return (
		<div className="mt-4 flex flex-col gap-6">
			<p className="text-muted">{props.signedIn ? t('codes.claim.intro') : t('codes.claim.signedOutIntro')}</p>
			<div className="rounded-card border border-line p-4">
				<UnlockedView unlocked={props.reward} />
			</div>
			{props.signedIn ? (
				<Form method="post">
					<Button type="submit" size="lg" className="w-full" disabled={navigation.state === 'submitting'}>
						{t('codes.claim.submit')}
					</Button>
				</Form>
			) : (
				<div className="flex flex-col gap-3">
					<Link to={`/auth/signin?${back}`} className={buttonClasses('primary', 'lg', 'w-full')}>
						{t('codes.redeem.reserved.signin')}
					</Link>
					<Link to={`/auth/signup?${back}`} className={buttonClasses('secondary', 'lg', 'w-full')}>
						{t('codes.redeem.reserved.signup')}
					</Link>
				</div>
			)}
		</div>
	)
}
