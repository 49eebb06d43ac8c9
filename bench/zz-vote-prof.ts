import { signIn } from './sign-in.ts';
const base = process.argv[2]!;
const cookie = await signIn(base, 'profvoter');
const list = (await (await fetch(`${base}/api/streamers`)).json()) as { id: number }[];
const ids = list.map((s) => s.id);
console.log(JSON.stringify({ cookie, ids }));
