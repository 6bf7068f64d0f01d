import { useEffect, useId, useRef, useState } from 'react'
import { useNonce } from '#app/components/nonce.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { usePageHydrates } from '#app/hydration.ts'
import { useTranslation } from '#app/i18n/react.tsx'
// The same suggestions on a page without React (app/hydration.ts), built by Vite as a file of its own.
import townSuggestIsland from '#app/islands/town-suggest.ts?worker&url'
import { TOWN_CHOICE_FIELD, TOWN_FIELD, TOWN_FIELD_MAX, TOWN_SUGGESTIONS_PATH, type TownProblem } from './rules.ts'

/** Letters typed before suggestions are asked for (towns.server.ts answers nothing below). */
const MIN_LENGTH = 2

/**
 * A town field: plain text that works as it is without JavaScript (the server resolves the name, and
 * asks which town when several bear it); with JavaScript, the browser's own suggestion list
 * (`<datalist>`) fills from the site's suggestions as the person types: by React on a page that
 * hydrates (the settings), by a small island elsewhere (the landing, the sign-up form). The town
 * list never comes to the browser: each suggestion is asked for, a few labels at a time.
 */
export function TownField(props: {
	defaultValue?: string | null
	problem?: TownProblem | null
	label?: string
	hint?: string
	/** The field is optional everywhere; say so unless the label already does. */
	optional?: boolean
	name?: string
}) {
	const { t } = useTranslation()
	const nonce = useNonce()
	const hydrates = usePageHydrates()
	const listId = useId()
	const [options, setOptions] = useState<string[]>([])
	const request = useRef<AbortController | null>(null)
	const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
	useEffect(() => () => clearTimeout(timer.current), [])

	function suggest(text: string) {
		clearTimeout(timer.current)
		request.current?.abort()
		if (text.trim().length < MIN_LENGTH) return setOptions([])
		timer.current = setTimeout(() => {
			const controller = new AbortController()
			request.current = controller
			fetch(`${TOWN_SUGGESTIONS_PATH}?q=${encodeURIComponent(text)}`, { signal: controller.signal })
				.then((response) => (response.ok ? (response.json() as Promise<{ towns: string[] }>) : { towns: [] }))
				.then(
					(body) => setOptions(body.towns),
					() => {},
				)
		}, 120)
	}

	const problem = props.problem
	return (
		<div className="flex flex-col gap-3">
			<Field
				label={props.label ?? t('towns.field.label')}
				optional={props.optional === false ? undefined : t('towns.field.optional')}
				hint={props.hint ?? t('towns.field.hint')}
				errors={problem ? [problem.message] : null}
			>
				{(control) => (
					<Input
						{...control}
						name={props.name ?? TOWN_FIELD}
						type="text"
						list={listId}
						autoComplete="off"
						maxLength={TOWN_FIELD_MAX}
						defaultValue={props.defaultValue ?? ''}
						placeholder={t('towns.field.placeholder')}
						{...(hydrates
							? { onInput: (event: React.FormEvent<HTMLInputElement>) => suggest(event.currentTarget.value) }
							: { 'data-town-suggest': TOWN_SUGGESTIONS_PATH })}
					/>
				)}
			</Field>
			<datalist id={listId}>
				{options.map((label) => (
					<option key={label} value={label}>
						{label}
					</option>
				))}
			</datalist>
			{hydrates ? null : <script type="module" src={townSuggestIsland} nonce={nonce || undefined} />}
			{problem && problem.choices.length > 0 ? (
				<fieldset className="flex flex-col gap-2 rounded-control border border-line p-3">
					<legend className="px-1 text-sm font-semibold">{t('towns.field.choose')}</legend>
					{problem.choices.map((label) => (
						<label key={label} className="flex min-h-11 items-center gap-2 text-sm">
							<input type="radio" name={TOWN_CHOICE_FIELD} value={label} className="size-4 accent-accent" />
							{label}
						</label>
					))}
				</fieldset>
			) : null}
		</div>
	)
}
