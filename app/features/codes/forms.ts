import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { parisWallClockToInstant as parisInstant } from '#app/platform/time-zone.ts'
import { BATCH_MAX, USES_MAX } from './rules.ts'
import { TYPED_MAX_LENGTH } from './code-format.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'

/*
 * The codes' forms, shared by the browser and the server: a campaign, a batch to generate, and the
 * public /redeem form. A campaign's dates are typed in Paris time as `YYYY-MM-DDTHH:mm`
 * (datetime-local) and stored as instants.
 */
const LIMITS = { name: 120, description: 2000, message: 20_000, links: 4000 } as const

/** The form's messages (keys of translation.json), looked up when a value is refused (app/i18n/schema-messages.ts). */
const MESSAGES = {
	name: lazyT('admin.codes.validation.name'),
	nameMax: lazyT('admin.codes.validation.nameMax', { max: LIMITS.name }),
	descriptionMax: lazyT('admin.codes.validation.descriptionMax', { max: frenchInteger(LIMITS.description) }),
	messageMax: lazyT('admin.codes.validation.messageMax', { max: frenchInteger(LIMITS.message) }),
	linksMax: lazyT('admin.codes.validation.linksMax', { max: frenchInteger(LIMITS.links) }),
	uses: lazyT('admin.codes.validation.uses'),
	wholeNumber: lazyT('admin.codes.validation.wholeNumber'),
	usesMin: lazyT('admin.codes.validation.usesMin'),
	usesMax: lazyT('admin.codes.validation.usesMax', { max: frenchInteger(USES_MAX) }),
	date: lazyT('admin.codes.validation.date'),
	endAfterStart: lazyT('admin.codes.validation.endAfterStart'),
} as const

const optionalText = (max: number, message: () => string) =>
	textField({ multiline: true }).trim().max(max, { error: message }).optional().default('')

const linkLine = /^(.{1,80}?)\s*\|\s*(https?:\/\/\S{1,2000})$/

export const CampaignSchema = z
	.object({
		name: textField({ error: MESSAGES.name }).trim().min(1, { error: MESSAGES.name }).max(LIMITS.name, { error: MESSAGES.nameMax }),
		description: optionalText(LIMITS.description, MESSAGES.descriptionMax),
		message: optionalText(LIMITS.message, MESSAGES.messageMax),
		/** One link per line: « Libellé | https://… ». */
		links: optionalText(LIMITS.links, MESSAGES.linksMax),
		startsAt: textField().optional(),
		endsAt: textField().optional(),
		usesPerCode: z.coerce
			.number({ error: MESSAGES.uses })
			.int({ error: MESSAGES.wholeNumber })
			.min(1, { error: MESSAGES.usesMin })
			.max(USES_MAX, { error: MESSAGES.usesMax })
			.default(1),
		paused: z.preprocess((v) => v === 'on' || v === true, z.boolean()).default(false),
	})
	.superRefine((value, ctx) => {
		for (const [index, line] of value.links.split(/\r?\n/).entries()) {
			if (line.trim() && !linkLine.test(line.trim()))
				ctx.addIssue({
					code: 'custom',
					path: ['links'],
					message: lazyT('admin.codes.validation.linkLine', { line: index + 1 })(),
				})
		}
		const starts = value.startsAt ? parisInstant(value.startsAt) : null
		const ends = value.endsAt ? parisInstant(value.endsAt) : null
		if (value.startsAt && !starts) ctx.addIssue({ code: 'custom', path: ['startsAt'], message: MESSAGES.date() })
		if (value.endsAt && !ends) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: MESSAGES.date() })
		if (starts && ends && ends <= starts) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: MESSAGES.endAfterStart() })
	})

export type CampaignInput = z.infer<typeof CampaignSchema>

export interface CampaignValues {
	name: string
	description: string
	message: string
	links: { label: string; url: string }[]
	startsAt: Date | null
	endsAt: Date | null
	usesPerCode: number
	status: 'active' | 'paused'
}

export function toCampaignValues(input: CampaignInput): CampaignValues {
	return {
		name: input.name,
		description: input.description,
		message: input.message,
		links: input.links
			.split(/\r?\n/)
			.map((line) => linkLine.exec(line.trim()))
			.filter((m): m is RegExpExecArray => Boolean(m))
			.map((m) => ({ label: m[1]!.trim(), url: m[2]! })),
		startsAt: input.startsAt ? parisInstant(input.startsAt) : null,
		endsAt: input.endsAt ? parisInstant(input.endsAt) : null,
		usesPerCode: input.usesPerCode,
		status: input.paused ? 'paused' : 'active',
	}
}

const LABEL_MAX = 120

/** A batch to generate: how many codes (1 to 100 000) and a label for the admins. */
export const BatchSchema = z.object({
	count: z.coerce
		.number({ error: lazyT('admin.codes.validation.count') })
		.int({ error: MESSAGES.wholeNumber })
		.min(1, { error: lazyT('admin.codes.validation.countMin') })
		.max(BATCH_MAX, { error: lazyT('admin.codes.validation.countMax', { max: frenchInteger(BATCH_MAX) }) }),
	label: textField()
		.trim()
		.max(LABEL_MAX, { error: lazyT('admin.codes.validation.labelMax', { max: LABEL_MAX }) })
		.optional()
		.default(''),
})
export type BatchInput = z.infer<typeof BatchSchema>

/**
 * The /redeem form, checked on the server (the browser only has `required` and `maxlength`). Its
 * errors are outcomes, not messages: the page words each one (redeem-page.server.ts).
 */
export const RedeemSchema = z.object({
	code: textField({ error: 'empty' })
		.trim()
		.min(1, 'empty')
		.max(TYPED_MAX_LENGTH * 4, 'invalid'),
})
