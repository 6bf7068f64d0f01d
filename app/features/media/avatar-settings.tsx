import { Trash2 } from '#app/components/icons.tsx'
import { Form, useNavigation, useRevalidator } from 'react-router'
import { ImageUpload } from '#app/components/image-upload.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import type { PublicImage } from './public-image.ts'
import { UPLOAD_URL } from './rules.ts'

/**
 * The avatar part of the settings page: the current photo, a new one sent and prepared in the
 * background (it replaces the old one once ready), and a plain form to remove it. Once a new photo
 * is ready, the page's data is loaded again so that the header shows it too.
 */
export function AvatarSettings(props: { avatar: (PublicImage & { id: string }) | null }) {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	const navigation = useNavigation()
	const removing = navigation.state === 'submitting' && navigation.formAction === UPLOAD_URL.avatar
	return (
		<ImageUpload
			name="avatarId"
			kind="avatar"
			label={t('settings.avatar.label')}
			initial={props.avatar}
			removable={false}
			onChange={() => void revalidator.revalidate()}
			actions={
				props.avatar ? (
					<Form method="post" action={UPLOAD_URL.avatar} preventScrollReset>
						<input type="hidden" name="intent" value="remove" />
						<Button type="submit" variant="ghost" size="sm" disabled={removing}>
							<Trash2 aria-hidden="true" />
							{removing ? t('settings.avatar.removing') : t('settings.avatar.remove')}
						</Button>
					</Form>
				) : null
			}
		/>
	)
}
