import MarkdownIt from 'markdown-it'

/*
 * Markdown to HTML, safe for text that anyone wrote: raw HTML is escaped (never passed through),
 * links with javascript:, vbscript: or data: addresses are refused by markdown-it's link check, and
 * French quotes and dashes are set properly.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: true, quotes: '«\u00a0\u00a0»‹\u00a0\u00a0›' })

const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
	const href = String(tokens[idx]!.attrGet('href') ?? '')
	if (/^https?:\/\//i.test(href)) tokens[idx]!.attrSet('rel', 'noopener noreferrer')
	return defaultLinkOpen(tokens, idx, options, env, self)
}

// A wide table scrolls sideways on a phone (.prose-site table): it takes the keyboard focus, so that
// it can be scrolled without a mouse (axe: scrollable-region-focusable).
markdown.renderer.rules.table_open = () => '<table tabindex="0">\n'

/**
 * The text as HTML. `topHeading` is the level its highest heading may take on the page (a heading
 * never outranks the page's own `<h1>` or the section it sits in): every heading moves down by the
 * same amount, so the text's own outline is kept.
 */
export function renderMarkdown(source: string, options: { topHeading?: number } = {}): string {
	const tokens = markdown.parse(source, {})
	const headings = tokens.filter((token) => token.type === 'heading_open' || token.type === 'heading_close')
	const highest = Math.min(...headings.map((token) => Number(token.tag.slice(1))))
	const shift = Math.max(0, (options.topHeading ?? 2) - highest)
	if (shift) for (const token of headings) token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + shift)}`
	return markdown.renderer.render(tokens, markdown.options, {})
}

/** The words of a Markdown text without its markup (share previews, calendars): paragraphs on lines of their own. */
export function markdownToText(source: string): string {
	const blocks: string[] = []
	for (const token of markdown.parse(source ?? '', {})) {
		if (token.type !== 'inline' || !token.children) continue
		let text = ''
		for (const child of token.children) {
			if (child.type === 'text' || child.type === 'code_inline') text += child.content
			else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' '
			else if (child.type === 'image') text += child.content
		}
		text = text.replace(/\s+/g, ' ').trim()
		if (text) blocks.push(text)
	}
	return blocks.join('\n')
}
