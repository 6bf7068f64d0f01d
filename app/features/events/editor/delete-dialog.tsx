import { Form, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog } from '#app/components/ui/dialog.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/**
 * « Supprimer cet événement ? »: the confirmation, and the form it submits (intent delete), to the
 * editor's own action or, with the row's `eventId`, to the list's.
 */
export function DeleteDialog(props: { open: boolean; onClose: () => void; title: string; eventId?: string }) {
	const navigation = useNavigation()
	const deleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'
	return (
		<>
			{/* Outside the dialog (its button names it): an empty body would leave a gap in the dialog. */}
			<Form method="post" id="form-suppression-evenement" hidden>
				<input type="hidden" name="intent" value="delete" />
				{props.eventId === undefined ? null : <input type="hidden" name="eventId" value={props.eventId} />}
			</Form>
			<DeleteConfirmation open={props.open} onClose={props.onClose} title={props.title} deleting={deleting} />
		</>
	)
}

function DeleteConfirmation(props: { open: boolean; onClose: () => void; title: string; deleting: boolean }) {
	const { t } = useTranslation()
	const { deleting } = props
	return (
		<Dialog
			open={props.open}
			onClose={props.onClose}
			title={t('admin.events.delete.dialogTitle', { title: props.title })}
			description={t('admin.events.delete.dialogBody')}
			size="sm"
			actions={
				<>
					<Button variant="secondary" onClick={props.onClose}>
						{t('admin.events.delete.cancel')}
					</Button>
					<Button type="submit" variant="danger" form="form-suppression-evenement" disabled={deleting}>
						{deleting ? t('admin.events.delete.deleting') : t('admin.events.delete.confirm')}
					</Button>
				</>
			}
		/>
	)
}
