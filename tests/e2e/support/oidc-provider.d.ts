/*
 * The little of oidc-provider's API the e2e harness uses (the package ships no types, and
 * @types/oidc-provider is not a dependency of the project).
 */
declare module 'oidc-provider' {
	import type { IncomingMessage, ServerResponse } from 'node:http'

	export interface Interaction {
		uid: string
		prompt: { name: 'login' | 'consent' | string; reasons: string[]; details: Record<string, unknown> }
		params: Record<string, unknown> & { client_id: string; scope?: string }
		session?: { accountId: string }
		grantId?: string
		returnTo: string
	}

	export interface InteractionResults {
		login?: { accountId: string; remember?: boolean }
		consent?: { grantId?: string }
		error?: string
		error_description?: string
	}

	export interface Grant {
		addOIDCScope(scope: string): void
		addOIDCClaims(claims: string[]): void
		addResourceScope(indicator: string, scope: string): void
		save(): Promise<string>
	}

	export interface GrantConstructor {
		new (properties: { accountId: string; clientId: string }): Grant
		find(id: string): Promise<Grant | undefined>
	}

	export class Provider {
		constructor(issuer: string, configuration: Record<string, unknown>)
		readonly Grant: GrantConstructor
		callback(): (req: IncomingMessage, res: ServerResponse) => void
		interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
		interactionFinished(
			req: IncomingMessage,
			res: ServerResponse,
			result: InteractionResults,
			options?: { mergeWithLastSubmission?: boolean },
		): Promise<void>
		on(event: string, listener: (...args: unknown[]) => void): this
	}
}
