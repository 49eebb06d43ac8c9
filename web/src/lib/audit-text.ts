import { i18n } from './i18n.svelte.ts';

/**
 * The audit log's summaries are the service's English records; in Czech they are rewritten
 * from their known shapes, and provider keys read as Twitch and Kick in both languages.
 */
const CS: [RegExp, (m: RegExpExecArray) => string][] = [
  [
    /^(Hid|Showed) a comment by (.*)$/s,
    (m) => `${m[1] === 'Hid' ? 'Skryt' : 'Zobrazen'} komentář od ${m[2]}`,
  ],
  [
    /^(Locked|Unlocked) community ratings of (.*)$/s,
    (m) => `${m[1] === 'Locked' ? 'Zamčeno' : 'Odemčeno'} komunitní hodnocení: ${m[2]}`,
  ],
  [/^Deleted a comment by (.*)$/s, (m) => `Smazán komentář od ${m[1]}`],
  [
    /^Rated (.*): (unrated|\d+) → (\d+)$/s,
    (m) => `Hodnocení ${m[1]}: ${m[2] === 'unrated' ? 'bez hodnocení' : m[2]} → ${m[3]}`,
  ],
  [/^Deleted streamer (.*)$/s, (m) => `Smazán streamer ${m[1]}`],
  [/^Added streamer (.*)$/s, (m) => `Přidán streamer ${m[1]}`],
  [
    /^Set auth_enabled to (true|false)$/,
    (m) => `Přihlášení ke komentování: ${m[1] === 'true' ? 'vyžadováno' : 'nevyžadováno'}`,
  ],
  [
    /^Added (.*) to team (.*) as (owner|rater)$/s,
    (m) => `${m[1]} přidán do týmu ${m[2]} jako ${m[3] === 'owner' ? 'vlastník' : 'hodnotitel'}`,
  ],
  [/^(Banned|Unbanned) (.*)$/s, (m) => `${m[1] === 'Banned' ? 'Zablokován' : 'Odblokován'} ${m[2]}`],
  [/^Made (.*) a moderator$/s, (m) => `${m[1]} je moderátor`],
  [/^Removed (.*) as moderator$/s, (m) => `${m[1]} už není moderátor`],
  [/^Created team (.*)$/s, (m) => `Založen tým ${m[1]}`],
  [/^Removed (.*) from team (.*)$/s, (m) => `${m[1]} odebrán z týmu ${m[2]}`],
  [/^Updated team (.*)$/s, (m) => `Upraven tým ${m[1]}`],
  [/^Deleted team (.*)$/s, (m) => `Smazán tým ${m[1]}`],
];

export function auditSummary(summary: string): string {
  const named = summary.replace(/\bprovider_a\b/g, 'Twitch').replace(/\bprovider_b\b/g, 'Kick');
  if (i18n.lang !== 'cs') return named;
  for (const [re, render] of CS) {
    const m = re.exec(named);
    if (m) return render(m);
  }
  return named;
}
