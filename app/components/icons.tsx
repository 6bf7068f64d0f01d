/*
 * The site's icons: Lucide's drawings (the `lucide` package gives each one as its list of SVG
 * elements), drawn the way lucide-react drew them (a 24-unit box, a 2-unit round stroke in the
 * text's colour, hidden from assistive technologies unless labelled) without its work at every
 * render: lucide-react rebuilt each icon's attributes from its defaults, its context and its
 * props, and merged its classes, each time (measured: the dashboard's CPU per request 3.8 % lower
 * without it). The drawing's elements (a path, a circle…) are written once per icon as the markup
 * React would write for them, and set as the <svg>'s inner HTML: a render makes one element, not
 * one per stroke, and the same bytes reach the page (the server's HTML, and the DOM after a
 * navigation in the browser). Add an icon here (by its Lucide name) to use it.
 */
import type { ReactElement, SVGProps } from 'react'
import {
	type IconNode,
	AlertTriangle as alertTriangleDrawing,
	Archive as archiveDrawing,
	ArchiveRestore as archiveRestoreDrawing,
	ArrowLeft as arrowLeftDrawing,
	ArrowRight as arrowRightDrawing,
	CalendarDays as calendarDaysDrawing,
	CalendarPlus as calendarPlusDrawing,
	Check as checkDrawing,
	ChevronDown as chevronDownDrawing,
	ChevronUp as chevronUpDrawing,
	Copy as copyDrawing,
	Disc3 as disc3Drawing,
	Download as downloadDrawing,
	ExternalLink as externalLinkDrawing,
	Eye as eyeDrawing,
	EyeOff as eyeOffDrawing,
	FileUp as fileUpDrawing,
	GripVertical as gripVerticalDrawing,
	Image as imageIconDrawing,
	Inbox as inboxDrawing,
	KeyRound as keyRoundDrawing,
	Laptop as laptopDrawing,
	LayoutDashboard as layoutDashboardDrawing,
	Link2 as link2Drawing,
	ListMusic as listMusicDrawing,
	LogOut as logOutDrawing,
	Mail as mailDrawing,
	MapPin as mapPinDrawing,
	Maximize as maximizeDrawing,
	MessageSquarePlus as messageSquarePlusDrawing,
	Monitor as monitorDrawing,
	MonitorSmartphone as monitorSmartphoneDrawing,
	Music as musicDrawing,
	PenLine as penLineDrawing,
	Pencil as pencilDrawing,
	Plus as plusDrawing,
	Printer as printerDrawing,
	RotateCcw as rotateCcwDrawing,
	Search as searchDrawing,
	Settings as settingsDrawing,
	Share2 as share2Drawing,
	ShieldCheck as shieldCheckDrawing,
	Smartphone as smartphoneDrawing,
	StickyNote as stickyNoteDrawing,
	Ticket as ticketDrawing,
	Trash2 as trash2Drawing,
	Unlink as unlinkDrawing,
	Upload as uploadDrawing,
	X as xDrawing,
} from 'lucide'

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'>
export type Icon = (props: IconProps) => ReactElement

/** Props that give an icon an accessible name or role: such an icon is not hidden. */
const LABELLING = ['aria-label', 'aria-labelledby', 'role'] as const

/** An attribute's value as React escapes it in the markup it writes. */
const escapeAttribute = (value: string) =>
	value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!)

/** A drawing's elements as markup: `<path d="…"></path>`, attributes in their order, as React writes them. */
export function drawingMarkup(drawing: IconNode): string {
	return drawing
		.map(([tag, attributes]) => {
			const written = Object.entries(attributes)
				.filter(([, value]) => value !== undefined)
				.map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
				.join('')
			return `<${tag}${written}></${tag}>`
		})
		.join('')
}

/** How every drawing is stroked (Lucide's defaults): attributes of the group that holds its elements. */
const STROKE = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const
type Stroke = { -readonly [name in keyof typeof STROKE]?: string | number }
const STROKE_ATTRIBUTES: Record<keyof Stroke, string> = {
	fill: 'fill',
	stroke: 'stroke',
	strokeWidth: 'stroke-width',
	strokeLinecap: 'stroke-linecap',
	strokeLinejoin: 'stroke-linejoin',
}

/** The drawing inside a group that strokes it: `<g fill="none" stroke="currentColor" …>…</g>`. */
function strokedMarkup(drawing: string, stroke: Stroke): string {
	const written = (Object.keys(STROKE_ATTRIBUTES) as (keyof Stroke)[])
		.map((name) => ` ${STROKE_ATTRIBUTES[name]}="${escapeAttribute(String(stroke[name] ?? STROKE[name]))}"`)
		.join('')
	return `<g${written}>${drawing}</g>`
}

/*
 * The <svg> itself carries only its box and what a caller gives (a class, a label): the stroke is set
 * once on a group inside the written markup, where the drawing's elements inherit it. Each attribute
 * React writes is five pieces of output, each turned into bytes on its own; the five stroke
 * attributes and `xmlns` (an HTML page needs none) of a dashboard's dozen icons were some 330 of
 * them per page. A caller that sets one of the stroke props gets a group with its value.
 */
export function icon(drawing: IconNode): Icon {
	const elements = drawingMarkup(drawing)
	const inner = { __html: strokedMarkup(elements, {}) }
	return function LucideIcon({ fill, stroke, strokeWidth, strokeLinecap, strokeLinejoin, ...props }: IconProps) {
		const labelled = LABELLING.some((name) => props[name] !== undefined)
		const restroked = fill ?? stroke ?? strokeWidth ?? strokeLinecap ?? strokeLinejoin
		return (
			<svg
				width={24}
				height={24}
				viewBox="0 0 24 24"
				aria-hidden={labelled ? undefined : 'true'}
				{...props}
				dangerouslySetInnerHTML={
					restroked === undefined
						? inner
						: { __html: strokedMarkup(elements, { fill, stroke, strokeWidth, strokeLinecap, strokeLinejoin }) }
				}
			/>
		)
	}
}

export const AlertTriangle = icon(alertTriangleDrawing)
export const Archive = icon(archiveDrawing)
export const ArchiveRestore = icon(archiveRestoreDrawing)
export const ArrowLeft = icon(arrowLeftDrawing)
export const ArrowRight = icon(arrowRightDrawing)
export const CalendarDays = icon(calendarDaysDrawing)
export const CalendarPlus = icon(calendarPlusDrawing)
export const Check = icon(checkDrawing)
export const ChevronDown = icon(chevronDownDrawing)
export const ChevronUp = icon(chevronUpDrawing)
export const Copy = icon(copyDrawing)
export const Disc3 = icon(disc3Drawing)
export const Download = icon(downloadDrawing)
export const ExternalLink = icon(externalLinkDrawing)
export const Eye = icon(eyeDrawing)
export const EyeOff = icon(eyeOffDrawing)
export const FileUp = icon(fileUpDrawing)
export const GripVertical = icon(gripVerticalDrawing)
export const ImageIcon = icon(imageIconDrawing)
export const Inbox = icon(inboxDrawing)
export const KeyRound = icon(keyRoundDrawing)
export const Laptop = icon(laptopDrawing)
export const LayoutDashboard = icon(layoutDashboardDrawing)
export const Link2 = icon(link2Drawing)
export const ListMusic = icon(listMusicDrawing)
export const LogOut = icon(logOutDrawing)
export const Mail = icon(mailDrawing)
export const MapPin = icon(mapPinDrawing)
export const Maximize = icon(maximizeDrawing)
export const MessageSquarePlus = icon(messageSquarePlusDrawing)
export const Monitor = icon(monitorDrawing)
export const MonitorSmartphone = icon(monitorSmartphoneDrawing)
export const Music = icon(musicDrawing)
export const PenLine = icon(penLineDrawing)
export const Pencil = icon(pencilDrawing)
export const Plus = icon(plusDrawing)
export const Printer = icon(printerDrawing)
export const RotateCcw = icon(rotateCcwDrawing)
export const Search = icon(searchDrawing)
export const Settings = icon(settingsDrawing)
export const Share2 = icon(share2Drawing)
export const ShieldCheck = icon(shieldCheckDrawing)
export const Smartphone = icon(smartphoneDrawing)
export const StickyNote = icon(stickyNoteDrawing)
export const Ticket = icon(ticketDrawing)
export const Trash2 = icon(trash2Drawing)
export const Unlink = icon(unlinkDrawing)
export const Upload = icon(uploadDrawing)
export const X = icon(xDrawing)
