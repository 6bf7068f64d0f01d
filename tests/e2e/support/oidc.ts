/*
 * A real OpenID Connect provider in the test process (oidc-provider), on 127.0.0.1 and a free port:
 * one confidential client (authorization code + PKCE, client_secret_post) whose redirect URI is the
 * site's /api/auth/callback/oidc, the scopes openid email profile, and the test users a spec adds.
 *
 * The interaction pages are ours and minimal: a sign-in form where the test types which user it is
 * (its login, no password), then a consent page with « Autoriser » / « Refuser ». « Refuser »
 * finishes the interaction with the `access_denied` error, as a real provider does.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Provider, type Interaction } from 'oidc-provider'

export interface OidcUser {
	/** What the test types on the provider's sign-in page. */
	login: string
	sub: string
	email: string
	name: string
}

export interface OidcServer {
	/** The issuer, `http://127.0.0.1:<port>` (also the origin the browser is allowed to talk to). */
	issuer: string
	origin: string
	clientId: string
	clientSecret: string
	/** The name the site shows on its button (OIDC_NAME). */
	name: string
	/** The environment that points the site at this provider. */
	siteEnv: Record<string, string>
	/** Adds a user the provider knows: e-mail verified by the provider, name as given. */
	addUser(user: { login: string; email: string; name: string }): OidcUser
	/** Every interaction page served, in order (`login` or `consent`, and for whom). */
	interactions: { prompt: string; login?: string }[]
	/** Errors the provider reported (server errors, failed grants): a healthy run has none. */
	errors: string[]
	close(): Promise<void>
}

export interface OidcOptions {
	/** The site's callback, e.g. http://localhost:1234/api/auth/callback/oidc. */
	redirectUri: string
	name?: string
}

function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function page(title: string, body: string): string {
	return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – Fournisseur d’identité de test</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#111;background:#fff}
label,input,button{display:block;width:100%;box-sizing:border-box}
input{padding:.5rem;margin:.25rem 0 1rem;border:1px solid #555}
button{padding:.6rem;margin-top:.5rem;border:1px solid #111;background:#111;color:#fff;font-weight:600}
button[value=deny]{background:#fff;color:#111}
p[role=alert]{color:#8a0000;font-weight:600}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`
}

function send(res: ServerResponse, status: number, html: string): void {
	res.statusCode = status
	res.setHeader('Content-Type', 'text/html; charset=utf-8')
	res.setHeader('Cache-Control', 'no-store')
	res.end(html)
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
	const chunks: Buffer[] = []
	let size = 0
	for await (const chunk of req) {
		size += (chunk as Buffer).length
		if (size > 16 * 1024) throw new Error('form too large')
		chunks.push(chunk as Buffer)
	}
	return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

function loginPage(uid: string, clientName: string, error?: string): string {
	return page(
		'Connexion au fournisseur',
		`<p>${escapeHtml(clientName)} vous demande de vous identifier.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label for="login">Identifiant</label>
<input id="login" name="login" autocomplete="username" required autofocus>
<button type="submit">Se connecter</button>
</form>`,
	)
}

function consentPage(uid: string, clientName: string, user: OidcUser | undefined, scopes: string[]): string {
	const wanted = scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('')
	return page(
		'Autoriser l’accès',
		`<p>${escapeHtml(clientName)} souhaite accéder à votre compte${user ? ` <strong>${escapeHtml(user.email)}</strong>` : ''} :</p>
<ul>${wanted}</ul>
<form method="post" action="/interaction/${encodeURIComponent(uid)}/consent">
<button type="submit" name="decision" value="allow">Autoriser</button>
<button type="submit" name="decision" value="deny">Refuser</button>
</form>`,
	)
}

export async function startOidcProvider(options: OidcOptions): Promise<OidcServer> {
	const name = options.name ?? 'Identité Test'
	const clientId = `site-e2e-${randomBytes(4).toString('hex')}`
	const clientSecret = randomBytes(24).toString('base64url')
	const usersByLogin = new Map<string, OidcUser>()
	const usersBySub = new Map<string, OidcUser>()
	const interactions: OidcServer['interactions'] = []
	const errors: string[] = []

	// Listen first: the issuer carries the port.
	let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => send(res, 503, 'starting')
	const server = http.createServer((req, res) => handler(req, res))
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(0, '127.0.0.1', () => resolve())
	})
	const { port } = server.address() as AddressInfo
	const issuer = `http://127.0.0.1:${port}`

	const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })
	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: clientId,
				client_secret: clientSecret,
				client_name: 'Site du groupe (e2e)',
				redirect_uris: [options.redirectUri],
				response_types: ['code'],
				grant_types: ['authorization_code'],
				token_endpoint_auth_method: 'client_secret_post',
			},
		],
		claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
		scopes: ['openid', 'email', 'profile'],
		async findAccount(_ctx: unknown, sub: string) {
			const user = usersBySub.get(sub)
			if (!user) return undefined
			return {
				accountId: sub,
				async claims() {
					return { sub, email: user.email, email_verified: true, name: user.name }
				},
			}
		},
		interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
		features: { devInteractions: { enabled: false } },
		// The client is confidential, and PKCE is required all the same (the site sends S256).
		pkce: { required: () => true },
		cookies: { keys: [randomBytes(32).toString('base64url')] },
		jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'RS256', kid: 'e2e' }] },
		clientBasedCORS: () => false,
		// Our own error page: the default one loads a web font from a third party.
		async renderError(ctx: { type: string; body: unknown }, out: Record<string, string>) {
			ctx.type = 'html'
			ctx.body = page('Erreur du fournisseur', `<pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`)
		},
	})
	for (const event of ['server_error', 'grant.error', 'userinfo.error', 'jwks.error', 'discovery.error']) {
		provider.on(event, (...args: unknown[]) => {
			const error = args.find((a) => a instanceof Error) as Error | undefined
			errors.push(
				`${event}: ${error ? `${error.name}: ${error.message} ${(error as { error_description?: string }).error_description ?? ''}` : ''}`,
			)
		})
	}
	const callback = provider.callback()

	async function interactionRoute(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) {
		let details: Interaction
		try {
			details = await provider.interactionDetails(req, res)
		} catch (error) {
			return send(res, 400, page('Demande expirée', `<p>${escapeHtml((error as Error).message)}</p>`))
		}
		if (details.uid !== uid) return send(res, 400, page('Demande inconnue', '<p>Cette demande ne correspond à rien.</p>'))
		const clientName = 'Site du groupe (e2e)'

		if (req.method === 'GET' && !action) {
			if (details.prompt.name === 'login') {
				interactions.push({ prompt: 'login' })
				return send(res, 200, loginPage(uid, clientName))
			}
			const user = details.session ? usersBySub.get(details.session.accountId) : undefined
			interactions.push({ prompt: details.prompt.name, login: user?.login })
			return send(
				res,
				200,
				consentPage(
					uid,
					clientName,
					user,
					String(details.params.scope ?? '')
						.split(' ')
						.filter(Boolean),
				),
			)
		}

		if (req.method === 'POST' && action === 'login') {
			const form = await formBody(req)
			const user = usersByLogin.get((form.get('login') ?? '').trim())
			if (!user) return send(res, 400, loginPage(uid, clientName, 'Identifiant inconnu.'))
			return provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false })
		}

		if (req.method === 'POST' && action === 'consent') {
			const form = await formBody(req)
			if (form.get('decision') !== 'allow') {
				return provider.interactionFinished(
					req,
					res,
					{ error: 'access_denied', error_description: 'End-User refused the consent' },
					{ mergeWithLastSubmission: false },
				)
			}
			const accountId = details.session?.accountId
			if (!accountId) return send(res, 400, page('Session absente', '<p>Identifiez-vous d’abord.</p>'))
			const missing = details.prompt.details as {
				missingOIDCScope?: string[]
				missingOIDCClaims?: string[]
				missingResourceScopes?: Record<string, string[]>
			}
			const grant =
				(details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
				new provider.Grant({ accountId, clientId: details.params.client_id })
			if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
			if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
			for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
				grant.addResourceScope(indicator, scopes.join(' '))
			}
			const grantId = await grant.save()
			return provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true })
		}

		return send(res, 405, page('Méthode non autorisée', ''))
	}

	handler = (req, res) => {
		const url = new URL(req.url ?? '/', issuer)
		const match = /^\/interaction\/([^/]+)(?:\/(login|consent))?$/.exec(url.pathname)
		if (!match) return callback(req, res)
		interactionRoute(req, res, decodeURIComponent(match[1]!), match[2]).catch((error: Error) => {
			errors.push(`interaction: ${error.message}`)
			if (!res.headersSent) send(res, 500, page('Erreur', `<p>${escapeHtml(error.message)}</p>`))
			else res.end()
		})
	}

	return {
		issuer,
		origin: issuer,
		clientId,
		clientSecret,
		name,
		siteEnv: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: name },
		addUser(input) {
			if (usersByLogin.has(input.login)) throw new Error(`the provider already has a user « ${input.login} »`)
			const user: OidcUser = { ...input, email: input.email.toLowerCase(), sub: `sub-${randomBytes(8).toString('hex')}` }
			usersByLogin.set(user.login, user)
			usersBySub.set(user.sub, user)
			return user
		},
		interactions,
		errors,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections()
				server.close(() => resolve())
			}),
	}
}
