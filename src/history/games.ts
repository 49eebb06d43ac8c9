import { HISTORY } from '../shared/history.ts';

/** Samples per game name, as a stream keeps them (its `games` column, JSON). */
export type GameCounts = Record<string, number>;

export function parseGames(text: string): GameCounts {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0),
    );
  } catch {
    return {};
  }
}

/** One more sample of `game` ('' counts nothing: no game given). Keeps at most gamesPerStream names. */
export function countGame(games: GameCounts, game: string): GameCounts {
  if (game === '') return games;
  if (games[game] === undefined && Object.keys(games).length >= HISTORY.gamesPerStream) return games;
  return { ...games, [game]: (games[game] ?? 0) + 1 };
}

export function addGames(into: GameCounts, games: GameCounts): GameCounts {
  const sum = { ...into };
  for (const [game, n] of Object.entries(games)) sum[game] = (sum[game] ?? 0) + n;
  return sum;
}

/** Game names, the most sampled first; ties by name so both databases answer alike. */
export const rankedGames = (games: GameCounts): string[] =>
  Object.entries(games)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([game]) => game);
