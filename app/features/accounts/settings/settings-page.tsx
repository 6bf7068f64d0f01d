import { Section } from '#app/components/ui/section.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { AvatarSettings } from '#app/features/media/avatar-settings.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { EmailSection, PasswordSection, ProfileSection } from './account-sections.tsx'
import { DataSection, MethodsSection, SessionsSection } from './access-sections.tsx'
import { DeleteSection } from './delete-section.tsx'
import type { ReactNode } from 'react'
import type { SectionProps } from './types.ts'

/** /dashboard/settings: every section of the member's account, each form on its own (the newsletter's comes from its feature). */
export function SettingsPage({ loaderData, actionData, newsletter }: SectionProps & { newsletter?: ReactNode }) {
	const { t } = useTranslation()
	const key = loaderData.formKey
	return (
		<>
			<PageHeader title={t('settings.title')} description={t('settings.intro')} />
			<div className="mt-8 flex flex-col gap-5">
				<ProfileSection key={`profile-${key}`} loaderData={loaderData} actionData={actionData} />
				<Section id="photo" title={t('settings.avatar.title')} description={t('settings.avatar.description')}>
					<AvatarSettings avatar={loaderData.avatar} />
				</Section>
				<EmailSection key={`email-${key}`} loaderData={loaderData} actionData={actionData} />
				<PasswordSection key={`password-${key}`} loaderData={loaderData} actionData={actionData} />
				<MethodsSection loaderData={loaderData} actionData={actionData} />
				<SessionsSection loaderData={loaderData} actionData={actionData} />
				{newsletter}
				<DataSection />
				<DeleteSection key={`delete-${key}`} loaderData={loaderData} actionData={actionData} />
			</div>
		</>
	)
}
