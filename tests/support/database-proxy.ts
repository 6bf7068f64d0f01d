import net from 'node:net'

/*
 * A TCP relay between a process under test and PostgreSQL that can stop passing the database's
 * answers on: the statements the process sends still run and commit, but it never hears so. The
 * newsletter crash test uses it to kill a sender at the worst moment, between the commit of its
 * « sent » record and the final « . » that follows that commit's answer.
 */
export interface DatabaseProxy {
	/** The database's URL through this relay. */
	url: string
	/** From now on nothing the database says reaches the process (its statements still go through). */
	holdAnswers(): void
	close(): Promise<void>
}

export async function startDatabaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
	const target = new URL(databaseUrl)
	const answers = new Set<net.Socket>()
	let holding = false
	const server = net.createServer((client) => {
		const upstream = net.connect(Number(target.port || 5432), target.hostname)
		client.pipe(upstream)
		if (holding) upstream.pause()
		else upstream.pipe(client)
		answers.add(upstream)
		const end = () => {
			answers.delete(upstream)
			client.destroy()
			upstream.destroy()
		}
		// A killed process resets its connections: each side ends the other, and no error is left unheard.
		for (const socket of [client, upstream]) socket.on('error', end).on('close', end)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const url = new URL(databaseUrl)
	url.hostname = '127.0.0.1'
	url.port = String((server.address() as net.AddressInfo).port)
	return {
		url: url.toString(),
		holdAnswers() {
			holding = true
			for (const upstream of answers) {
				upstream.unpipe()
				upstream.pause()
			}
		},
		close() {
			for (const upstream of answers) upstream.destroy()
			return new Promise((resolve) => server.close(() => resolve()))
		},
	}
}
