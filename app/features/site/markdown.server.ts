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

export function renderMarkdown(source: string): string {
	return markdown.render(source)
}
