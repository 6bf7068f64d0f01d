import { Plus, Search, Ticket } from '#app/components/icons.tsx'
import { Form, Link, redirect } from 'react-router'
import type { Route } from './+types/codes'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { listCampaigns } from '#app/features/codes/campaigns.server.ts'
import { normalizeCode, TYPED_MAX_LENGTH } from '#app/features/codes/code-format.ts'
import { findCode } from '#app/features/codes/redeem.server.ts'
import { formatDay } from '#app/platform/time-zone.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.codes')

/*
 * The admin's codes: every campaign with its counts (generated, redeemed, revoked), and a search
 * box that finds one code and opens its page (state, who redeemed it and when).
 */
const BASE = '/dashboard/admin/codes'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const db = await getDb()
	const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, TYPED_MAX_LENGTH)
	let notFound = false
	if (q) {
		const normalised = normalizeCode(q)
		if (normalised && (await findCode(db, normalised))) throw redirect(`${BASE}/code/${normalised}`)
		notFound = true
	}
	return { title: pageTitle(getT()('admin.codes.metaTitle')), q, notFound, campaigns: await listCampaigns(db) }
}

const number = (n: number) => n.toLocaleString('fr-FR')

export default function AdminCodes({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { campaigns, q, notFound } = loaderData
	const newCampaign = (
		<Link to={`${BASE}/new`} className={buttonClasses('primary')}>
			<Plus aria-hidden="true" />
			{t('admin.codes.new')}
		</Link>
	)
	return (
		<>
			<PageHeader title={t('admin.codes.title')} description={t('admin.codes.intro')} actions={newCampaign} />
			<Form method="get" role="search" className="mt-6 flex max-w-xl flex-col gap-1.5">
				<label htmlFor="code-search" className="text-sm font-semibold">
					{t('admin.codes.search.label')}
				</label>
				<div className="flex gap-2">
					<Input
						id="code-search"
						name="q"
						defaultValue={q}
						maxLength={TYPED_MAX_LENGTH}
						placeholder="ABCD-EFGH-JKMN"
						autoComplete="off"
						className="font-mono uppercase"
						aria-describedby={notFound ? 'code-search-result' : undefined}
					/>
					<Button type="submit" variant="secondary">
						<Search aria-hidden="true" />
						{t('admin.codes.search.submit')}
					</Button>
				</div>
				{notFound ? (
					<p id="code-search-result" role="status" className="text-sm font-medium text-danger">
						{t('admin.codes.search.notFound', { q })}
					</p>
				) : null}
			</Form>

			{campaigns.length === 0 ? (
				<EmptyState
					className="mt-8"
					icon={<Ticket aria-hidden="true" />}
					title={t('admin.codes.empty.title')}
					body={t('admin.codes.empty.body')}
					action={newCampaign}
				/>
			) : (
				<Table label={t('admin.codes.table.label')} className="mt-8">
					<TableHead>
						<TableRow>
							<TableHeader>{t('admin.codes.table.name')}</TableHeader>
							<TableHeader>{t('admin.codes.table.status')}</TableHeader>
							<TableHeader>{t('admin.codes.table.validity')}</TableHeader>
							<TableHeader numeric>{t('admin.codes.table.generated')}</TableHeader>
							<TableHeader numeric>{t('admin.codes.table.redeemed')}</TableHeader>
							<TableHeader numeric>{t('admin.codes.table.revoked')}</TableHeader>
						</TableRow>
					</TableHead>
					<TableBody>
						{campaigns.map((c) => (
							<TableRow key={c.id}>
								<TableCell wrap>
									<Link to={`${BASE}/${c.id}`} className={linkClasses('default', 'font-semibold')}>
										{c.name}
									</Link>
								</TableCell>
								<TableCell>
									<Badge tone={c.status === 'active' ? 'success' : 'warning'}>
										{c.status === 'active' ? t('admin.codes.status.active') : t('admin.codes.status.paused')}
									</Badge>
								</TableCell>
								<TableCell>
									{c.startsAt || c.endsAt
										? `${c.startsAt ? formatDay(c.startsAt) : '…'} → ${c.endsAt ? formatDay(c.endsAt) : '…'}`
										: t('admin.codes.table.always')}
								</TableCell>
								<TableCell numeric>{number(c.generated)}</TableCell>
								<TableCell numeric>{number(c.redeemed)}</TableCell>
								<TableCell numeric>{number(c.revoked)}</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
			)}
		</>
	)
}
