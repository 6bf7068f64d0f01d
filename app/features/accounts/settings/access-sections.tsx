import { Download, Laptop, Link2, Smartphone } from '#app/components/icons.tsx'
import { Form, useNavigation } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { Section } from '#app/components/ui/section.tsx'
import { formatDate } from '#app/platform/time-zone.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { IntentInput, Notice, resultFor, useSending, When } from './parts.tsx'
import type { SectionProps } from './types.ts'

/* The settings about access: sign-in methods, signed-in devices, the member's data. */

export function MethodsSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const result = resultFor(actionData, 'unlink')
	const canUnlink = loaderData.methods.length > 1
	const pending = navigation.state === 'submitting' ? navigation.formData : undefined
	return (
		<Section id="connexion" title={t('settings.methods.title')} description={t('settings.methods.description')}>
			<div className="flex flex-col gap-4">
				{loaderData.linkNotice ? <Notice type={loaderData.linkNotice.type}>{loaderData.linkNotice.message}</Notice> : null}
				{result?.error?.[''] ? <FormError id="connexion-erreur" errors={result.error['']} /> : null}
				<ul className="divide-y divide-line rounded-control border border-line">
					{loaderData.methods.map((method) => {
						const unlinking = pending?.get('intent') === 'unlink' && pending.get('methodId') === method.id
						return (
							<li key={method.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
								<div className="min-w-0">
									<p className="font-medium">{method.name}</p>
									<p className="text-sm text-muted">{t('settings.methods.since', { date: formatDate(method.linkedAt) })}</p>
								</div>
								{canUnlink ? (
									<Form method="post" preventScrollReset>
										<IntentInput intent="unlink" />
										<input type="hidden" name="methodId" value={method.id} />
										<Button
											type="submit"
											variant="secondary"
											size="sm"
											disabled={unlinking}
											aria-label={t('settings.methods.unlinkLabel', { name: method.name })}
										>
											{t('settings.methods.unlink')}
										</Button>
									</Form>
								) : null}
							</li>
						)
					})}
				</ul>
				{canUnlink ? null : <p className="text-sm text-muted">{t('settings.methods.lastOne')}</p>}
				{loaderData.linkable.length > 0 ? (
					<ul className="flex flex-wrap gap-2" aria-label={t('settings.methods.linkableLabel')}>
						{loaderData.linkable.map((provider) => (
							<li key={provider.id}>
								<Form method="post" action="/auth/social">
									<input type="hidden" name="provider" value={provider.id} />
									<Button type="submit" variant="secondary" size="sm">
										<Link2 aria-hidden="true" />
										{t('settings.methods.link', { name: provider.name })}
									</Button>
								</Form>
							</li>
						))}
					</ul>
				) : null}
			</div>
		</Section>
	)
}

export function SessionsSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const sending = useSending('revoke-others')
	const result = resultFor(actionData, 'revoke-others')
	const others = loaderData.sessions.filter((s) => !s.current).length
	return (
		<Section id="appareils" title={t('settings.sessions.title')} description={t('settings.sessions.description')}>
			<div className="flex flex-col gap-4">
				{result?.error?.[''] ? <FormError id="appareils-erreur" errors={result.error['']} /> : null}
				<ul className="divide-y divide-line rounded-control border border-line">
					{loaderData.sessions.map((s) => (
						<li key={s.id} className="flex gap-3 px-4 py-3">
							{s.mobile ? (
								<Smartphone aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted" />
							) : (
								<Laptop aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted" />
							)}
							<div className="min-w-0 flex-1">
								<p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
									{s.device ?? t('settings.sessions.unknownDevice')}
									{s.current ? <Badge tone="accent">{t('settings.sessions.thisDevice')}</Badge> : null}
								</p>
								<dl className="mt-1 grid gap-x-4 gap-y-0.5 text-sm text-muted sm:grid-cols-[auto_1fr]">
									<dt>{t('settings.sessions.lastActive')}</dt>
									<dd className="text-fg">
										<When value={s.lastActiveAt} />
									</dd>
									<dt>{t('settings.sessions.signedIn')}</dt>
									<dd className="text-fg">
										<When value={s.createdAt} />
									</dd>
									<dt>{t('settings.sessions.address')}</dt>
									<dd className="font-mono text-fg break-all">{s.ipAddress ?? t('settings.sessions.unknownAddress')}</dd>
								</dl>
							</div>
						</li>
					))}
				</ul>
				{others > 0 ? (
					<Form method="post" preventScrollReset>
						<IntentInput intent="revoke-others" />
						<Button type="submit" variant="secondary" disabled={sending}>
							{t('settings.sessions.revokeOthers')}
						</Button>
					</Form>
				) : (
					<p className="text-sm text-muted">{t('settings.sessions.onlyThis')}</p>
				)}
			</div>
		</Section>
	)
}

export function DataSection() {
	const { t } = useTranslation()
	return (
		<Section id="donnees" title={t('settings.export.title')} description={t('settings.export.description')}>
			<div className="flex max-w-md flex-col items-start gap-3">
				<p className="text-sm">{t('settings.export.body')}</p>
				<a href="/dashboard/settings/export" download className={buttonClasses('secondary')}>
					<Download aria-hidden="true" />
					{t('settings.export.download')}
				</a>
			</div>
		</Section>
	)
}
