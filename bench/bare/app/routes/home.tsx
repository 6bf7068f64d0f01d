export default function Home() {
	return <p>Bonjour.</p>
}
