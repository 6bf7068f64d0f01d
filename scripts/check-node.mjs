// Stops any npm script that runs on a Node.js older than the one the project brings.
// `npm install` puts Node 24 in node_modules/.bin, which npm scripts use first;
// an install with --ignore-scripts skips that and falls back to the system Node.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 22)) {
	console.error(
		`\nCe projet demande Node.js 22.22 ou plus récent (Node ${process.versions.node} trouvé).\n` +
			`This project needs Node.js >= 22.22; it brings Node 24 as a devDependency.\n` +
			`Run \`npm install\` (without --ignore-scripts) and use the npm scripts.\n`,
	)
	process.exit(1)
}
