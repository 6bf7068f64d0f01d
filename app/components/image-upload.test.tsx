import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import translation from '../../public/locales/fr-FR/translation.json'
import { I18nProvider } from '#app/i18n/react.tsx'
import type { Resources } from '#app/i18n/translate.ts'
import { ImageUpload, type ImageUploadProps } from './image-upload.tsx'

/* What the server renders of the upload field, before any script runs. */
const cover = {
	id: '0b7c1f3e-1f1e-4f7e-9a3b-2c1d0e9f8a7b',
	width: 1600,
	height: 900,
	alt: '',
	variants: (['avif', 'webp', 'jpeg'] as const).flatMap((format) =>
		[480, 960, 1600].map((width) => ({
			format,
			width,
			height: Math.round((width * 9) / 16),
			url: `/media/img/0b7c1f3e-1f1e-4f7e-9a3b-2c1d0e9f8a7b/${width}.${format === 'jpeg' ? 'jpg' : format}`,
		})),
	),
}

function render(props: Partial<ImageUploadProps> = {}) {
	return renderToStaticMarkup(
		<I18nProvider language="fr-FR" resources={translation as Resources}>
			<ImageUpload name="coverId" kind="cover" label="Affiche" {...props} />
		</I18nProvider>,
	)
}

/** The opening tag of the first element that matches (no DOM in this test project: plain markup). */
function tag(html: string, pattern: RegExp): string {
	const found = html.match(new RegExp(`<[^>]*${pattern.source}[^>]*>`))
	if (!found) throw new Error(`no element matches ${pattern}`)
	return found[0]
}
const attr = (element: string, name: string) => element.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1]
/** The text of the element with that id. */
const textOf = (html: string, id: string) =>
	html
		.match(new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</(?:p|span|div|label)>`))?.[1]
		?.replace(/<[^>]+>/g, '')
		.replace(/&#x27;|&#39;/g, "'")

describe('ImageUpload', () => {
	it('fills the hidden input with the image it starts with, and shows that image in every format', () => {
		const html = render({ initial: cover })
		expect(attr(tag(html, /type="hidden"/), 'value')).toBe(cover.id)
		expect([...html.matchAll(/<source type="([^"]+)"/g)].map((m) => m[1])).toEqual(['image/avif', 'image/webp'])
		const img = tag(html, /width="1600"/)
		expect(attr(img, 'height')).toBe('900')
		expect(html).toContain('Changer d’image')
		expect(html).toContain('Retirer l’image')
	})

	it('is empty without an image, with its label, limits and accepted types on the file input', () => {
		const html = render()
		expect(attr(tag(html, /type="hidden"/), 'value')).toBe('')
		const input = tag(html, /type="file"/)
		expect(attr(input, 'accept')).toBe('image/jpeg,image/png,image/webp,image/avif')
		expect(textOf(html, attr(input, 'aria-labelledby')!)).toBe('Affiche')
		const described = attr(input, 'aria-describedby')!
			.split(' ')
			.map((id) => textOf(html, id))
		expect(described).toContain('JPEG, PNG, WebP ou AVIF, 15\u00a0Mo au maximum.')
		expect(html).toMatch(new RegExp(`<label for="${attr(input, 'id')}"[^>]*>.*Choisir une image</label>`))
		expect(html).not.toContain('Retirer')
	})

	it('shows the form’s errors next to the field, announced, and marks the input invalid', () => {
		const html = render({ errors: ['Cette image n’existe plus.'] })
		const input = tag(html, /type="file"/)
		expect(attr(input, 'aria-invalid')).toBe('true')
		const alert = tag(html, /role="alert"/)
		expect(attr(input, 'aria-describedby')).toContain(attr(alert, 'id'))
		expect(textOf(html, attr(alert, 'id')!)).toContain('Cette image n’existe plus.')
	})

	it('says 5 Mo for an avatar, shown round', () => {
		const html = render({ kind: 'avatar', name: 'avatarId', label: 'Votre photo' })
		expect(html).toContain('5\u00a0Mo au maximum')
		expect(html).toContain('rounded-full')
	})
})
