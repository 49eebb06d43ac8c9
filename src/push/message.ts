import { SITE_NAME } from '../shared/site.ts';
import { streamerPath } from '../shared/rules.ts';
import type { Claimed } from './outbox.ts';

/** What a device shows (DECISIONS.md "Fifth wave" → "Push notifications"): the payload's JSON. */
export interface PushPayload {
  kind: string;
  title: string;
  body: string;
  /** Absolute from BASE_URL: the streamer's page, `#c<id>` for a comment. */
  url: string;
  /** The same for one stream or comment, so that a device shows one message for it. */
  tag: string;
}

const cut = (text: string, max: number) =>
  [...text].length > max ? [...text].slice(0, max - 1).join('') + '…' : text;

/** The payload of a notification's message, in Czech (the community's language); null when it is not sent. */
export function notificationPayload(m: Claimed, baseUrl: string): PushPayload | null {
  if (m.kind === null || m.streamer_id === null || m.streamer_name === null || m.shown !== 1) return null;
  const page = baseUrl + streamerPath(m.streamer_id, m.streamer_name);
  const name = m.streamer_name;
  switch (m.kind) {
    case 'live': {
      const what = [m.stream_title, m.stream_game].filter(Boolean).map((t) => cut(String(t), 120));
      return {
        kind: 'live',
        title: `${name} vysílá`,
        body: what.length > 0 ? what.join(' · ') : 'Právě začal(a) vysílat.',
        url: page,
        tag: `live-${m.stream_id ?? m.streamer_id}`,
      };
    }
    case 'reply':
    case 'mention': {
      if (m.comment_id === null) return null;
      const who = m.author_name ?? m.comment_author ?? 'Někdo';
      return {
        kind: m.kind,
        title: m.kind === 'reply' ? `${who} odpovídá · ${name}` : `${who} vás zmiňuje · ${name}`,
        body: cut(m.comment_body ?? '', 140),
        url: `${page}#c${m.comment_id}`,
        tag: `c${m.comment_id}`,
      };
    }
    case 'rated':
      return {
        kind: 'rated',
        title: `${name}: nové hodnocení`,
        body: m.total === null ? 'Hodnocení se změnilo.' : `Celkem ${Number(m.total)}/70.`,
        url: page,
        tag: `rated-${m.streamer_id}`,
      };
    default:
      return null;
  }
}

/** The test message (POST /api/push/test). */
export function testPayload(baseUrl: string): PushPayload {
  return {
    kind: 'test',
    title: SITE_NAME,
    body: 'Zkušební zpráva: oznámení na tomto zařízení fungují.',
    url: `${baseUrl}/`,
    tag: 'test',
  };
}
