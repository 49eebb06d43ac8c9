import type { AuditTitles, AuditWords } from '../lib/audit-words.ts';
import { pluralCategory, writeNumber } from '../../../src/shared/formats.ts';
import { cs } from './cs.ts';

/**
 * The audit log in Czech (the administration's audit tab, loaded when it opens; not
 * part of the first view): each action's title and the sentence of an entry.
 */
export const csAuditTitles: AuditTitles = {
  'comment.delete': 'Smazán komentář',
  'comment.hide': 'Skrytý komentář',
  'member.add': 'Přidán člen',
  'member.remove': 'Odebrán člen',
  'settings.update': 'Změna nastavení',
  'settings.operator': 'Změna provozovatele',
  'settings.words': 'Změna slov ke schválení',
  'streamer.add': 'Přidán streamer',
  'streamer.delete': 'Smazán streamer',
  'streamer.lock': 'Zamčení hodnocení',
  'team.create': 'Založen tým',
  'team.delete': 'Smazán tým',
  'team.update': 'Změna týmu',
  'user.ban': 'Zablokován uživatel',
  'user.moderator': 'Změna moderátora',
  'streamer.edit': 'Změna hodnocení',
  'streamer.rate': 'Ohodnocen streamer',
  'streamer.reply_remove': 'Odstraněna odpověď streamera',
  // Změnil se jeden komentář: co se s ním stalo, jako v titulku záznamu o jednom komentáři.
  'comment.bulk': (p) =>
    p.count === 1
      ? {
          hide: 'Skrytý komentář',
          show: 'Zobrazený komentář',
          delete: 'Smazán komentář',
          dismiss: 'Uzavřena hlášení',
          approve: 'Schválen komentář',
        }[p.action]
      : 'Hromadná moderace',
  'comment.pin': 'Připnutí komentáře',
  'user.timeout': 'Dočasné omezení',
  'user.admin': 'Změna administrátora',
  'user.sessions': 'Odhlášení všude',
  'settings.discord': 'Změna Discordu',
  'auth.password': 'Změna hesla',
  'block.add': 'Blokace adresy',
  'block.remove': 'Zrušení blokace',
  'review.save': 'Uložen posudek',
  'review.publish': 'Zveřejněny posudky',
  'review.request': 'Žádost o nové hodnocení',
};

/**
 * By display name as the rest of the page names people (older entries may have only the
 * login); an empty login is a deleted account (the service forgets the person).
 */
const account = (
  p: { login: string; display_name?: string; provider: string },
  name: (p: string) => string,
) => (p.login ? `${p.display_name || p.login} (${name(p.provider)})` : 'smazaný uživatel');
const author = (name: string) => name || 'smazaný uživatel';
/** "od" and the author in the genitive a deleted user needs. */
const byAuthor = (name: string) => `od ${name || 'smazaného uživatele'}`;
/** Kde komentář byl; záznam z doby, kdy log streamera neuváděl, to neříká. */
const under = (streamer: string | undefined) => (streamer === undefined ? '' : ` u streamera ${streamer}`);
const total = (n: number | null) => (n === null ? 'bez hodnocení' : String(n));
/** A count with its Czech noun: 1 posudek, 2 posudky, 5 posudků. */
const counted = (n: number, one: string, few: string, other: string) => {
  const category = pluralCategory('cs', n);
  return `${n} ${category === 'one' ? one : category === 'few' ? few : other}`;
};

/** Záznamy auditního logu (akce a její parametry, audit/actions.ts) česky. */
export const csAudit: AuditWords = {
  'streamer.add': (p) => `Přidán streamer ${p.name}`,
  'streamer.edit': (p) =>
    p.renamed === undefined
      ? `Hodnocení ${p.name}: ${total(p.from)} → ${p.to}`
      : p.from === p.to
        ? `Přejmenování ${p.name} na ${p.renamed}`
        : `Hodnocení ${p.name}: ${total(p.from)} → ${p.to}, přejmenován na ${p.renamed}`,
  'streamer.rate': (p) => `Hodnocení ${p.name}: ${total(p.from)} → ${p.to}`,
  'streamer.lock': (p) => `${p.locked ? 'Zamčeno' : 'Odemčeno'} komunitní hodnocení: ${p.name}`,
  'streamer.delete': (p) => `Smazán streamer ${p.name}`,
  'comment.delete': (p) => `Smazán komentář ${byAuthor(p.author)}${under(p.streamer)}`,
  'comment.hide': (p) =>
    `${p.hidden ? 'Skryt' : 'Zobrazen'} komentář ${byAuthor(p.author)}${under(p.streamer)}`,
  'team.create': (p) => `Založen tým ${p.team}`,
  'team.update': (p) => `Upraven tým ${p.team}`,
  'team.delete': (p) => `Smazán tým ${p.team}`,
  'member.add': (p, name) =>
    `${account(p, name)} přidán do týmu ${p.team} jako ${p.role === 'owner' ? 'vlastník' : 'hodnotitel'}`,
  'member.remove': (p, name) => `${account(p, name)} odebrán z týmu ${p.team}`,
  'user.ban': (p, name) => `${p.banned ? 'Zablokován' : 'Odblokován'} ${account(p, name)}`,
  'user.moderator': (p, name) => `${account(p, name)} ${p.moderator ? 'je moderátor' : 'už není moderátor'}`,
  'settings.update': (p) =>
    p.key === 'guest_hold'
      ? `${cs['trust.guestHold']}: ${cs[`trust.guestHold.${p.value}`]}`
      : p.key === 'guest_challenge'
        ? `${cs['trust.guestChallenge']}: ${cs[`trust.guestChallenge.${p.value}`]}`
        : p.key === 'refuse_repeats'
          ? `${cs['words.refuseRepeats']}: ${p.value ? 'zapnuto' : 'vypnuto'}`
          : `Přihlášení ke komentování: ${p.value ? 'vyžadováno' : 'nevyžadováno'}`,
  'settings.discord': (p) => `Discord: propojené kanály: ${p.webhooks.length}`,
  'settings.words': (p) => `${cs['words.holdWords']}: ${p.words.length}`,
  'settings.operator': (p) =>
    `Provozovatel na stránce o soukromí: ${p.name ?? '(neuveden)'}, kontakt ${p.contact ?? '(žádný)'}`,
  'auth.password': () => 'Změněno heslo administrátora',
  'user.admin': (p, name) => `${account(p, name)} ${p.admin ? 'je administrátor' : 'už není administrátor'}`,
  'user.sessions': (p, name) => `${account(p, name)} odhlášen všude (relací: ${p.count})`,
  'user.timeout': (p, name) =>
    p.hours === 0
      ? `Zrušeno omezení uživatele ${account(p, name)}`
      : `${account(p, name)} dočasně omezen na ${p.hours} h`,
  'comment.bulk': (p) => {
    if (p.comment) {
      const one = {
        hide: 'Skryt komentář',
        show: 'Zobrazen komentář',
        delete: 'Smazán komentář',
        dismiss: 'Uzavřena hlášení ke komentáři',
        approve: 'Schválen komentář',
      }[p.action];
      return `${one} ${byAuthor(p.comment.author)}${under(p.comment.streamer)}`;
    }
    const verb = {
      hide: 'Skryty',
      show: 'Zobrazeny',
      delete: 'Smazány',
      dismiss: 'Uzavřena hlášení',
      approve: 'Schváleny',
    }[p.action];
    const which =
      'ids' in p.selector
        ? 'vybrané komentáře'
        : 'user_id' in p.selector
          ? `komentáře uživatele #${p.selector.user_id}`
          : `komentáře hosta ${p.selector.guest_tag}`;
    return `${verb}: ${which} (${p.count})`;
  },
  'block.add': (p) =>
    `Zablokována adresa hosta ${p.guest_tag} (${author(p.author)}) na ${counted(p.days, 'den', 'dny', 'dní')}`,
  'block.remove': (p) => `Zrušena blokace hosta ${p.guest_tag}`,
  // Issue 26
  'streamer.reply_remove': (p) => `Odstraněna odpověď streamera u ${p.name}`,
  'comment.pin': (p) =>
    `${p.pinned ? 'Připnut' : 'Odepnut'} komentář ${byAuthor(p.author)}${under(p.streamer)}`,
  'review.save': (p) => `${p.abstain ? 'Zdržení se posudku' : 'Posudek'}: ${p.name}`,
  'review.publish': (p) =>
    `Zveřejněno: ${counted(p.reviews, 'posudek', 'posudky', 'posudků')} (${p.name}): ${total(p.from)} → ${p.to} (rozptyl ${writeNumber('cs', p.spread, 0, 2)})`,
  'review.request': (p) => `Streamer požádal o nové hodnocení: ${p.name}`,
};
