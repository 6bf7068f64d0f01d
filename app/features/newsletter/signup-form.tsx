import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { Link } from 'react-router'
import type { z } from 'zod'
import { Button } from '#app/components/ui/button.tsx'
import { Checkbox } from '#app/components/ui/checkbox.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { useEditedFields, validateOnServer } from '#app/components/forms/validation.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { TownField } from '#app/features/towns/town-field.tsx'
import type { TownProblem } from '#app/features/towns/rules.ts'
import type { SubscribeSchema } from './forms.ts'

export type SignupResult = {
	newsletter: 'sent' | 'invalid'
	result: SubmissionResult<string[]> | null
	town?: TownProblem | null
	typedTown?: string
}
type Input = z.input<typeof SubscribeSchema>
type Constraint = NonNullable<Parameters<typeof useForm<Input>>[0]['constraint']>

/**
 * The landing page's newsletter sign-up: an address and an unticked consent. A plain form (the
 * landing sends no script: app/hydration.ts): the browser posts the page, the answer comes back in
 * `fallback`, and the action's `#newsletter` brings the visitor back to this section, where the
 * answer is. Nothing here depends on the visitor until they submit, so the page stays cacheable.
 *
 * The server validates (the landing does not download Zod): `constraint` comes from the page's
 * loader (newsletterSignupConstraint), a refused field's message stays until that field is edited.
 */
export function NewsletterSignup(props: { action: string; fallback?: SignupResult | null; bandName: string; constraint: Constraint }) {
	const { t } = useTranslation()
	const outcome = props.fallback ?? null
	const [form, fields] = useForm<Input>({
		id: 'newsletter-signup',
		lastResult: outcome?.result,
		constraint: props.constraint,
		...validateOnServer,
	})
	const edited = useEditedFields(outcome?.result)
	return (
		<section id="newsletter" aria-labelledby="newsletter-titre" className="border-t border-line bg-surface">
			<div className="mx-auto grid w-full max-w-page gap-8 px-gutter py-16 sm:py-20 lg:grid-cols-[1fr_minmax(0,28rem)] lg:items-start lg:gap-16">
				<div>
					<p className="eyebrow mb-2 text-accent-fg">{t('newsletter.signup.eyebrow')}</p>
					<h2 id="newsletter-titre" className="font-display text-headline tracking-display uppercase">
						{t('newsletter.signup.title')}
					</h2>
					<p className="mt-4 max-w-xl text-lg text-muted">{t('newsletter.signup.intro', { band: props.bandName })}</p>
				</div>
				{outcome?.newsletter === 'sent' ? (
					<div role="status" className="rounded-card border border-line-strong bg-canvas p-6">
						<p className="font-display text-xl tracking-display uppercase">{t('newsletter.signup.sentTitle')}</p>
						<p className="mt-2 text-muted">{t('newsletter.signup.sentBody')}</p>
					</div>
				) : (
					<form
						method="post"
						action={`${props.action}#newsletter`}
						className="flex flex-col gap-4"
						{...getFormProps(form)}
						onInput={edited.onInput}
					>
						{edited.island}
						<input type="hidden" name="intent" value="newsletter" />
						<FormError id={form.errorId} errors={form.errors} />
						<Field label={t('newsletter.signup.email')} errors={edited.errors(fields.email)}>
							{(control) => (
								<Input
									{...getInputProps(fields.email, { type: 'email' })}
									{...control}
									autoComplete="email"
									placeholder={t('newsletter.signup.emailPlaceholder')}
								/>
							)}
						</Field>
						<TownField key={outcome?.typedTown ?? ''} defaultValue={outcome?.typedTown} problem={outcome?.town} />
						{/* A field people never see nor reach; robots fill it in. */}
						<div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
							<label>
								{t('newsletter.signup.honeypot')}
								<input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
							</label>
						</div>
						<Checkbox
							{...getInputProps(fields.consent, { type: 'checkbox' })}
							key={fields.consent.key}
							errors={edited.errors(fields.consent)}
							label={
								<>
									{t('newsletter.signup.consent', { band: props.bandName })}{' '}
									<Link to="/policies/privacy" className={linkClasses()}>
										{t('newsletter.signup.policy')}
									</Link>
								</>
							}
						/>
						<Button type="submit" size="lg">
							{t('newsletter.signup.submit')}
						</Button>
						<p className="text-sm text-muted">{t('newsletter.signup.note')}</p>
					</form>
				)}
			</div>
		</section>
	)
}
