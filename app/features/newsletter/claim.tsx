import { Form, Link, useNavigation } from 'react-router'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/**
 * The newsletter's part of /auth/claim (mode=newsletter): the GET shows the confirmation button,
 * its POST confirms (a mail scanner that follows the link subscribes nobody); then it says so.
 */
export function NewsletterClaim(props: { state: 'confirm' | 'form' | 'invalid' | 'done' }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	if (props.state === 'done') {
		return (
			<div className="mt-4" role="status">
				<p className="text-muted">{t('newsletter.claim.done')}</p>
				<Link to="/" className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
					{t('newsletter.claim.toSite')}
				</Link>
			</div>
		)
	}
	if (props.state === 'invalid') {
		return (
			<div className="mt-4">
				<p className="text-muted">{t('newsletter.claim.invalid')}</p>
				<Link to="/#newsletter" className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
					{t('newsletter.claim.askAgain')}
				</Link>
			</div>
		)
	}
	return (
		<Form method="post" className="mt-4 flex flex-col gap-6">
			<p className="text-muted">{t('newsletter.claim.intro')}</p>
			<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
				{t('newsletter.claim.submit')}
			</Button>
		</Form>
	)
}
