import type { SubmissionResult } from '@conform-to/react'
import type { getZodConstraint } from '@conform-to/zod/v4'
import type { PublicImage } from '#app/features/media/public-image.ts'
import type { ActiveSession, SignInMethod } from '../types.ts'
import type { SettingsIntent } from './forms.ts'

type Constraint = ReturnType<typeof getZodConstraint>

/** What the settings page shows: the route's loader returns it. */
export interface SettingsData {
	/** A new key on every load: after a successful change (a redirect here), the forms start empty again. */
	formKey: string
	profile: { name: string; city: string; email: string; emailVerified: boolean }
	avatar: (PublicImage & { id: string }) | null
	hasPassword: boolean
	methods: SignInMethod[]
	/** Providers configured on the site and not linked yet. */
	linkable: Array<{ id: string; name: string }>
	sessions: ActiveSession[]
	emailSent: boolean
	linkNotice: { type: 'success' | 'error'; message: string } | null
	constraint: { profile: Constraint; email: Constraint; password: Constraint; deletion: Constraint }
}

/** The action's answer to a refused form: which form, and its errors. */
export type SettingsActionData = { intent: SettingsIntent; result: SubmissionResult<string[]> } | undefined

export interface SectionProps {
	loaderData: SettingsData
	actionData: SettingsActionData
}
