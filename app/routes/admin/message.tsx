import { getFormProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft, Check, RotateCcw, Trash2 } from '#app/components/icons.tsx'
import { useState } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import type { z } from 'zod'
import type { Route } from './+types/message'
import { validateInBrowser } from '#app/components/forms/validate-in-browser.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog } from '#app/components/ui/dialog.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { deleteMessage, openMessage, replyToMessage, setHandled } from '#app/features/contact/contact.server.ts'
import { ReplySchema } from '#app/features/contact/forms.ts'
import { formatDateTime } from '#app/platform/time-zone.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('contact', 'auth.validation')

/* One contact message: read it (opening marks it read), reply by e-mail (kept in the thread), mark handled, delete. */

const LIST = '/dashboard/admin/messages'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const message = await openMessage(await getPlatform(), params.messageId)
	if (!message) throw redirect(LIST)
	const t = getT()
	return { title: pageTitle(`${t('contact.admin.metaTitle')} · ${message.name}`), message, constraint: getZodConstraint(ReplySchema) }
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const platform = await getPlatform()
	const formData = await request.formData()
	const intent = formData.get('intent')
	const here = `${LIST}/${params.messageId}`
	if (intent === 'handled' || intent === 'reopen') {
		if (!(await setHandled(platform, params.messageId, intent === 'handled'))) return redirect(LIST)
		if (intent === 'handled') return redirectWithFlash(LIST, { type: 'success', key: 'contact.admin.flash.handled' })
		return redirectWithFlash(here, { type: 'success', key: 'contact.admin.flash.reopened' })
	}
	if (intent === 'delete') {
		await deleteMessage(platform, params.messageId)
		return redirectWithFlash(LIST, { type: 'success', key: 'contact.admin.flash.deleted' })
	}
	if (intent !== 'reply') throw data(null, { status: 400 })
	const submission = parseWithZod(formData, { schema: ReplySchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const outcome = await replyToMessage(platform, admin, params.messageId, submission.value.reply)
	if (!outcome.ok) {
		if (outcome.reason === 'missing') return redirect(LIST)
		return data({ result: submission.reply({ formErrors: [outcome.message] }) }, { status: outcome.reason === 'limited' ? 429 : 503 })
	}
	return redirectWithFlash(here, { type: 'success', key: 'contact.admin.flash.replied' })
}

/** A message's text as paragraphs, as typed (React escapes it: no HTML gets through). */
function Text(props: { text: string; className?: string }) {
	return (
		<div className={props.className}>
			{props.text.split(/\n{2,}/).map((p, i) => (
				<p key={i} className="whitespace-pre-line [&+p]:mt-3">
					{p}
				</p>
			))}
		</div>
	)
}

export default function AdminMessage({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { message } = loaderData
	const navigation = useNavigation()
	const [confirmDelete, setConfirmDelete] = useState(false)
	const [form, fields] = useForm<z.input<typeof ReplySchema>>({
		// A new reply in the thread gives an empty form (the page stays the same after sending).
		id: `reponse-${message.id}-${message.replies.length}`,
		lastResult: actionData?.result,
		constraint: loaderData.constraint,
		...validateInBrowser(ReplySchema),
	})
	const busy = navigation.state !== 'idle'
	const mailLabel: Record<string, string> = {
		queued: t('contact.admin.mail.queued'),
		sent: t('contact.admin.mail.sent'),
		failed: t('contact.admin.mail.failed'),
	}
	const notifyLabel = {
		queued: t('contact.admin.notify.queued'),
		sent: t('contact.admin.notify.sent'),
		failed: t('contact.admin.notify.failed'),
		none: t('contact.admin.notify.none'),
	}[message.notifyStatus ?? 'none']
	return (
		<article aria-labelledby="message-title" className="max-w-3xl">
			<Link to={LIST} className={linkClasses('quiet', 'inline-flex min-h-11 items-center gap-1.5 text-sm')}>
				<ArrowLeft aria-hidden="true" className="size-4" />
				{t('contact.admin.back')}
			</Link>
			<header className="mt-2 flex flex-wrap items-start justify-between gap-4">
				<div>
					<p className="flex items-center gap-2">
						<Badge tone={message.status === 'handled' ? 'success' : 'neutral'}>{t(`contact.admin.status.${message.status}`)}</Badge>
						<span className="text-sm text-muted">{t(`contact.subjects.${message.subject}`)}</span>
					</p>
					<h1 id="message-title" className="mt-2 text-2xl font-semibold tracking-tight">
						{message.name}
					</h1>
					<p className="text-muted">
						<a href={`mailto:${message.email}`} className={linkClasses('quiet')}>
							{message.email}
						</a>
						{' · '}
						{t('contact.admin.receivedOn', { date: formatDateTime(message.createdAt) })}
					</p>
				</div>
				<div className="flex flex-wrap gap-2">
					<Form method="post">
						{message.status === 'handled' ? (
							<Button type="submit" name="intent" value="reopen" variant="secondary" disabled={busy}>
								<RotateCcw aria-hidden="true" />
								{t('contact.admin.markOpen')}
							</Button>
						) : (
							<Button type="submit" name="intent" value="handled" variant="secondary" disabled={busy}>
								<Check aria-hidden="true" />
								{t('contact.admin.markHandled')}
							</Button>
						)}
					</Form>
					<Button type="button" variant="ghost" onClick={() => setConfirmDelete(true)}>
						<Trash2 aria-hidden="true" />
						{t('contact.admin.delete')}
					</Button>
				</div>
			</header>
			<Text text={message.body} className="mt-6 rounded-card border border-line bg-surface p-5 leading-relaxed" />
			<p className="mt-2 text-sm text-muted">{notifyLabel}</p>

			{message.replies.length > 0 ? (
				<section aria-labelledby="fil" className="mt-8">
					<h2 id="fil" className="text-lg font-semibold tracking-tight">
						{t('contact.admin.thread')}
					</h2>
					<ol className="mt-3 flex flex-col gap-3">
						{message.replies.map((reply) => (
							<li key={reply.id} className="rounded-card border border-line border-l-4 border-l-accent bg-surface p-4">
								<p className="text-sm text-muted">
									{t('contact.admin.replyBy', { name: reply.authorName, date: formatDateTime(reply.createdAt) })}
									{reply.mailStatus ? ` · ${mailLabel[reply.mailStatus]}` : ''}
								</p>
								<Text text={reply.body} className="mt-2" />
							</li>
						))}
					</ol>
				</section>
			) : null}

			<Form key={form.id} method="post" className="mt-8 flex flex-col gap-4" {...getFormProps(form)}>
				<input type="hidden" name="intent" value="reply" />
				<FormError id={form.errorId} errors={form.errors} />
				<Field
					label={t('contact.admin.replyLabel')}
					hint={t('contact.admin.replyHint', { email: message.email })}
					errors={fields.reply.errors}
				>
					{(control) => <Textarea {...getTextareaProps(fields.reply)} {...control} rows={6} />}
				</Field>
				<Button type="submit" disabled={busy} className="self-start">
					{t('contact.admin.replySubmit')}
				</Button>
			</Form>

			<Dialog
				open={confirmDelete}
				onClose={() => setConfirmDelete(false)}
				title={t('contact.admin.deleteTitle')}
				description={t('contact.admin.deleteBody')}
				actions={
					<>
						<Button type="button" variant="secondary" onClick={() => setConfirmDelete(false)}>
							{t('contact.admin.cancel')}
						</Button>
						<Form method="post">
							<Button type="submit" name="intent" value="delete" variant="danger" disabled={busy}>
								{t('contact.admin.deleteConfirm')}
							</Button>
						</Form>
					</>
				}
			/>
		</article>
	)
}
