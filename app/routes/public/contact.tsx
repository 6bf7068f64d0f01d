import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Mail } from '#app/components/icons.tsx'
import { data, Form, useNavigation } from 'react-router'
import type { z } from 'zod'
import type { Route } from './+types/contact'
import { useEditedFields, validateOnServer } from '#app/components/forms/validation.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { failureHeaders, retryAfterHeaders } from '#app/features/accounts/auth-actions.server.ts'
import { submitContact } from '#app/features/contact/contact.server.ts'
import { ContactSchema } from '#app/features/contact/forms.ts'
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECTS } from '#app/features/contact/rules.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getEnv } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { clientAddressOf } from '#app/platform/rate-limit.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('contact', 'auth.validation')

export function meta({ loaderData }: Route.MetaArgs) {
	if (!loaderData) return []
	return [
		{ title: loaderData.title },
		{ name: 'description', content: loaderData.description },
		{ tagName: 'link', rel: 'canonical', href: loaderData.canonical },
	]
}

export function headers(args: Route.HeadersArgs) {
	return retryAfterHeaders(args)
}

/** The same page for every visitor (the anonymous page cache may serve it): nothing personal here. */
export async function loader() {
	const t = getT()
	return {
		title: pageTitle(t('contact.metaTitle')),
		description: t('contact.metaDescription'),
		canonical: `${getEnv().SITE_URL}/contact`,
		constraint: getZodConstraint(ContactSchema),
	}
}

export async function action({ request }: Route.ActionArgs) {
	const submission = parseWithZod(await request.formData(), { schema: ContactSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), sent: false }, { status: 400 })
	const outcome = await submitContact(await getPlatform(), clientAddressOf(request), submission.value)
	if (!outcome.ok) {
		return data(
			{ result: submission.reply({ formErrors: [outcome.message] }), sent: false },
			{
				status: 429,
				headers: failureHeaders({ ok: false, status: 429, message: outcome.message, retryAfterSeconds: outcome.retryAfterSeconds }),
			},
		)
	}
	return { result: submission.reply({ resetForm: true }), sent: true }
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof ContactSchema>>({
		lastResult: actionData?.result,
		constraint: loaderData.constraint,
		...validateOnServer,
	})
	const edited = useEditedFields(actionData?.result)
	return (
		<div className="mx-auto grid max-w-page gap-12 px-gutter pt-28 pb-20 sm:pt-32 lg:grid-cols-[1fr_1.3fr]">
			<header>
				<h1 className="font-display text-display tracking-display uppercase">{t('contact.title')}</h1>
				<p className="mt-4 max-w-prose text-lg text-muted">{t('contact.intro')}</p>
				<ul className="mt-8 flex flex-col gap-3 text-muted">
					<li>
						<strong className="text-fg">{t('contact.subjects.booking')}</strong> · {t('contact.subjectHints.booking')}
					</li>
					<li>
						<strong className="text-fg">{t('contact.subjects.presse')}</strong> · {t('contact.subjectHints.presse')}
					</li>
					<li>
						<strong className="text-fg">{t('contact.subjects.autre')}</strong> · {t('contact.subjectHints.autre')}
					</li>
				</ul>
			</header>
			<section aria-labelledby="contact-form-title" className="rounded-card border border-line bg-surface p-5 sm:p-8">
				<h2 id="contact-form-title" className="text-xl font-semibold tracking-tight">
					{t('contact.formTitle')}
				</h2>
				{actionData?.sent ? (
					<div role="status" className="mt-4 flex gap-3 rounded-lg border border-line bg-raised px-4 py-3">
						<Mail aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-fg" />
						<div>
							<p className="font-semibold">{t('contact.sentTitle')}</p>
							<p className="mt-1 text-muted">{t('contact.sentBody')}</p>
						</div>
					</div>
				) : null}
				<Form method="post" className="mt-6 flex flex-col gap-5" {...getFormProps(form)} onInput={edited.onInput}>
					{edited.island}
					<FormError id={form.errorId} errors={form.errors} />
					<div className="grid gap-5 sm:grid-cols-2">
						<Field label={t('contact.fields.name')} errors={edited.errors(fields.name)}>
							{(control) => <Input {...getInputProps(fields.name, { type: 'text' })} {...control} autoComplete="name" />}
						</Field>
						<Field label={t('contact.fields.email')} errors={edited.errors(fields.email)}>
							{(control) => <Input {...getInputProps(fields.email, { type: 'email' })} {...control} autoComplete="email" />}
						</Field>
					</div>
					<Field label={t('contact.fields.subject')} errors={edited.errors(fields.subject)}>
						{(control) => (
							<Select {...getSelectProps(fields.subject)} {...control} defaultValue={fields.subject.initialValue ?? ''}>
								<option value="" disabled>
									{t('contact.fields.subjectPlaceholder')}
								</option>
								{CONTACT_SUBJECTS.map((subject) => (
									<option key={subject} value={subject}>
										{t(`contact.subjects.${subject}`)}
									</option>
								))}
							</Select>
						)}
					</Field>
					<Field
						label={t('contact.fields.message')}
						hint={t('contact.fields.messageHint', { max: frenchInteger(CONTACT_MESSAGE_MAX) })}
						errors={edited.errors(fields.message)}
					>
						{(control) => <Textarea {...getTextareaProps(fields.message)} {...control} rows={8} />}
					</Field>
					{/* The honeypot: invisible and out of the tab order; people leave it empty, naive bots fill it. */}
					<div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
						<label>
							{t('contact.fields.website')}
							<input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
						</label>
					</div>
					<p className="text-sm text-muted">
						{t('contact.privacyNote')}{' '}
						<a href="/policies/privacy" className={linkClasses('quiet')}>
							{t('contact.privacyLink')}
						</a>
					</p>
					<Button type="submit" size="lg" disabled={navigation.state === 'submitting'} className="self-start">
						{t('contact.submit')}
					</Button>
				</Form>
			</section>
		</div>
	)
}
