import { type Provider, PROVIDER_NAMES, streamerPath } from '../shared/rules.ts';
import type { EventEmbed } from './queries.ts';

/**
 * What each event says in Discord (in Czech, the community's language). The embed's title is
 * the streamer's name and its URL the streamer's page (DECISIONS.md "Reaching out").
 */

const COLORS = {
  rated: 0xf5a524,
  suggested: 0x3b82f6,
  live: 0xe11d48,
  reported: 0x64748b,
  test: 0x22c55e,
} as const;

/** Text users wrote, shown as written: Discord's markdown characters escaped (`\x60` is the backtick). */
export const literal = (text: string): string => text.replace(/([\\*_~\x60|<>[\]()#])/g, '\\$1');

const cut = (text: string, max: number) =>
  [...text].length > max ? [...text].slice(0, max - 1).join('') + '…' : text;

interface Named {
  id: number;
  name: string;
}

/** A streamer entered the Public view (`before` null) or its total changed. */
export function ratedEmbed(s: Named, total: number, before: number | null, at: string): EventEmbed {
  return {
    title: s.name,
    path: streamerPath(s.id, s.name),
    description:
      before === null
        ? `Nově v žebříčku s hodnocením **${total}/70**.`
        : `Hodnocení se změnilo: **${total}/70** (dříve ${before}/70).`,
    color: COLORS.rated,
    timestamp: at,
  };
}

/** A visitor suggested a streamer. The suggester's label is never shown (SPEC.md). */
export function suggestedEmbed(s: Named & { platform: Provider }, at: string): EventEmbed {
  return {
    title: s.name,
    path: streamerPath(s.id, s.name),
    description: `Nový návrh od návštěvníka (${PROVIDER_NAMES[s.platform]}). Čeká na hodnocení.`,
    color: COLORS.suggested,
    timestamp: at,
  };
}

/** Live sync saw the streamer go live. */
export function liveEmbed(
  s: Named & { platform: Provider },
  stream: { game: string; title: string },
  at: string,
): EventEmbed {
  const what = [stream.title, stream.game].filter(Boolean).map((t) => literal(cut(t, 300)));
  return {
    title: s.name,
    path: streamerPath(s.id, s.name),
    description: `Právě vysílá na ${PROVIDER_NAMES[s.platform]}.${what.length ? `\n${what.join(' · ')}` : ''}`,
    color: COLORS.live,
    timestamp: at,
  };
}

const REASONS: Record<string, string> = { spam: 'spam', abuse: 'urážlivé', other: 'jiné' };

/** A comment got its first open report. */
export function reportedEmbed(
  s: Named,
  comment: { author: string; body: string; reason: string },
  at: string,
): EventEmbed {
  return {
    title: s.name,
    path: streamerPath(s.id, s.name),
    description:
      `Nahlášený komentář (${REASONS[comment.reason] ?? literal(comment.reason)}) od ${literal(cut(comment.author, 50))}:\n` +
      `> ${literal(cut(comment.body, 500)).replace(/\n/g, '\n> ')}`,
    color: COLORS.reported,
    timestamp: at,
  };
}

/** The administrator's test-send. */
export function testEmbed(siteName: string, at: string): EventEmbed {
  return {
    title: siteName,
    path: '/',
    description: 'Zkušební zpráva: tento webhook je propojený a funguje.',
    color: COLORS.test,
    timestamp: at,
  };
}
