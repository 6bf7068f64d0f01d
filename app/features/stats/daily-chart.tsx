import { useEffect, useRef, useState } from 'react'

/*
 * A daily bar chart drawn by uPlot (about 50 kB, canvas), loaded only when an admin screen shows a
 * chart: the library and its stylesheet are a separate chunk imported here on demand. The chart is
 * a picture for sighted users; the same numbers are in the table next to it (DailyTable).
 */
export interface ChartSeries {
	label: string
	daily: number[]
	/** 'accent' (the band's colour) or 'danger' (failures). */
	tone?: 'accent' | 'danger' | 'muted'
}

const HEIGHT = 180

export function DailyChart(props: { days: string[]; series: ChartSeries[]; label: string }) {
	const frame = useRef<HTMLDivElement>(null)
	const [failed, setFailed] = useState(false)
	const { days, series } = props
	useEffect(() => {
		const element = frame.current
		if (!element) return
		let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | undefined
		let observer: ResizeObserver | undefined
		let cancelled = false
		void (async () => {
			try {
				const [{ default: uPlot }] = await Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
				if (cancelled) return
				const styles = getComputedStyle(document.documentElement)
				const colour = (tone: ChartSeries['tone']) =>
					styles.getPropertyValue(tone === 'danger' ? '--color-danger' : tone === 'muted' ? '--color-muted' : '--color-accent').trim() ||
					'#ff5a36'
				const muted = styles.getPropertyValue('--color-muted').trim() || '#888'
				const line = styles.getPropertyValue('--color-line').trim() || '#333'
				const xs = days.map((day) => Date.parse(`${day}T12:00:00Z`) / 1000)
				// One series: a bar centred on its day; two: side by side, left and right of the day.
				const barsFor = (index: number) =>
					series.length > 1
						? uPlot.paths.bars!({ size: [0.4, 20], align: index === 0 ? -1 : 1 })
						: uPlot.paths.bars!({ size: [0.7, 40], align: 0 })
				const dayLabel = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' })
				const axis = {
					stroke: muted,
					grid: { stroke: line, width: 1 },
					ticks: { stroke: line, width: 1 },
					font: '12px system-ui, sans-serif',
				}
				chart = new uPlot(
					{
						width: element.clientWidth,
						height: HEIGHT,
						legend: { show: false },
						cursor: { drag: { x: false, y: false }, points: { show: false } },
						scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
						axes: [
							{ ...axis, values: (_u, ticks) => ticks.map((tick) => dayLabel.format(new Date(tick * 1000))) },
							{
								...axis,
								size: 44,
								values: (_u, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? tick.toLocaleString('fr-FR') : '')),
							},
						],
						series: [
							{},
							...series.map((s, index) => ({
								label: s.label,
								stroke: colour(s.tone),
								fill: `${colour(s.tone)}cc`,
								width: 0,
								paths: barsFor(index),
								points: { show: false },
							})),
						],
					},
					[xs, ...series.map((s) => s.daily)],
					element,
				)
				observer = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height: HEIGHT }))
				observer.observe(element)
			} catch {
				if (!cancelled) setFailed(true)
			}
		})()
		return () => {
			cancelled = true
			observer?.disconnect()
			chart?.destroy()
		}
	}, [days, series])
	return (
		<figure className="m-0">
			{/* The picture of the table that follows it: hidden from screen readers, which read the table. */}
			<div ref={frame} aria-hidden="true" className="min-h-[180px] w-full" />
			{failed ? <p className="text-sm text-muted">{props.label}</p> : null}
		</figure>
	)
}
