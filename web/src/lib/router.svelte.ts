/** Hash routes: `#/`, `#/s/12` (a streamer), `#/suggest`, `#/admin`, `#/admin/teams`. */
export type Route =
  | { name: 'ranking' }
  | { name: 'streamer'; id: number }
  | { name: 'suggest' }
  | { name: 'admin'; tab: string };

function parse(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  if (parts[0] === 's' && /^\d+$/.test(parts[1] ?? '')) return { name: 'streamer', id: Number(parts[1]) };
  if (parts[0] === 'suggest') return { name: 'suggest' };
  if (parts[0] === 'admin') return { name: 'admin', tab: parts[1] || 'streamers' };
  return { name: 'ranking' };
}

export const router = $state({ route: parse(location.hash) });

window.addEventListener('hashchange', () => {
  router.route = parse(location.hash);
  window.scrollTo(0, 0);
});

export const href = {
  ranking: '#/',
  streamer: (id: number) => `#/s/${id}`,
  suggest: '#/suggest',
  admin: (tab = 'streamers') => `#/admin/${tab}`,
};
