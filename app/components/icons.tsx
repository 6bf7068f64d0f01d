/*
 * The site's icons: Lucide's drawings (the `lucide` package gives each one as its list of SVG
 * elements), drawn the way lucide-react drew them (a 24-unit box, a 2-unit round stroke in the
 * text's colour, hidden from assistive technologies unless labelled) without its work at every
 * render: lucide-react rebuilt each icon's attributes from its defaults, its context and its
 * props, and merged its classes, each time (measured: the dashboard's CPU per request 3.8 % lower
 * without it). A render here makes the drawing's few elements and wraps them in an <svg>. (Making
 * them once and sharing them between renders measured 7 % slower: more garbage collection.)
 * Add an icon here (by its Lucide name) to use it.
 */
import { createElement, type ReactElement, type SVGProps } from 'react'
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

export function icon(drawing: IconNode): Icon {
	return function LucideIcon(props: IconProps) {
		const elements = drawing.map(([tag, attributes], index) => createElement(tag, { ...attributes, key: index }))
		const labelled = LABELLING.some((name) => props[name] !== undefined)
		return (
			<svg
				xmlns="http://www.w3.org/2000/svg"
				width={24}
				height={24}
				viewBox="0 0 24 24"
				fill="none"
				stroke="currentColor"
				strokeWidth={2}
				strokeLinecap="round"
				strokeLinejoin="round"
				aria-hidden={labelled ? undefined : 'true'}
				{...props}
			>
				{elements}
			</svg>
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
