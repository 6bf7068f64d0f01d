import { type FormEvent, useCallback, useEffect, useRef } from 'react'
import { type Blocker, useBlocker, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog } from '#app/components/ui/dialog.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/*
 * Leaving a form with unsaved changes asks first: inside the site (the router's blocker, answered
 * by `UnsavedChangesDialog`) and when the tab is closed or reloaded (the browser's own question).
 * A move within the same page (a query string, a hash) is never stopped, nor the form's own save:
 * its onSubmit hands the event to `markSubmitting` after the form's own handler, and the redirect
 * that follows the save goes through.
 */

/** The name of the button Conform submits a form with to have a field checked (not a save). */
const CONFORM_INTENT = '__intent__'

export function useUnsavedChanges(dirty: boolean) {
	const navigation = useNavigation()
	const submitting = useRef(false)
	useEffect(() => {
		if (navigation.state === 'idle') submitting.current = false
	}, [navigation.state])
	const blocker = useBlocker(
		({ currentLocation, nextLocation }) => dirty && !submitting.current && currentLocation.pathname !== nextLocation.pathname,
	)
	useEffect(() => {
		if (!dirty) return
		const warn = (e: BeforeUnloadEvent) => {
			e.preventDefault()
			e.returnValue = ''
		}
		window.addEventListener('beforeunload', warn)
		return () => window.removeEventListener('beforeunload', warn)
	}, [dirty])
	/**
	 * A save is on its way, unless the form's own handler refused it (it posts nothing, and leaving
	 * must still ask) or it is Conform asking the server about a field as it loses the focus (that
	 * post runs while the admin may be clicking a link away).
	 */
	const markSubmitting = useCallback((event: FormEvent<HTMLFormElement>) => {
		if (event.defaultPrevented) return
		const submitter = (event.nativeEvent as SubmitEvent).submitter
		if (submitter?.getAttribute('name') === CONFORM_INTENT) return
		submitting.current = true
	}, [])
	return { blocker, markSubmitting }
}

/** « Quitter sans enregistrer ? »: shown while the blocker holds a navigation; `body` says what would be lost. */
export function UnsavedChangesDialog({ blocker, body }: { blocker: Blocker; body: string }) {
	const { t } = useTranslation()
	return (
		<Dialog
			open={blocker.state === 'blocked'}
			onClose={() => blocker.reset?.()}
			title={t('common.leave.title')}
			description={body}
			size="sm"
			actions={
				<>
					<Button variant="secondary" onClick={() => blocker.reset?.()}>
						{t('common.leave.stay')}
					</Button>
					<Button variant="danger" onClick={() => blocker.proceed?.()}>
						{t('common.leave.leave')}
					</Button>
				</>
			}
		/>
	)
}
