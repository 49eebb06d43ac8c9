import type { MailKind, MailLang } from '../shared/mail.ts';

/** British English's short month names (`Sept`, as Intl's en-GB writes it). */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];

/** What the messages say, in each language the page speaks (cs, the site's own, and en). */
export const WORDS: Record<
  MailLang,
  {
    confirmSubject: string;
    confirmIntro: string;
    confirmButton: string;
    confirmValid: string;
    confirmNotYou: string;
    kindsSubject: (n: number) => string;
    kind: Record<MailKind, (streamer: string, actor: string | null) => string>;
    more: (n: number) => string;
    open: string;
    digestSubject: string;
    digestIntro: (from: string, to: string) => string;
    /** The zone the digest's days are cut in and written in (TZ), said under them. */
    digestZone: (zone: string) => string;
    /** A day's date, in UTC (the way Intl's medium date style writes it: 3. 12. 2026, 3 Dec 2026). */
    date: (d: Date) => string;
    ratings: string;
    streams: string;
    replies: string;
    total: (n: number) => string;
    why: string;
    /** A confirmation's footer: it goes to an address someone typed, not one who chose it. */
    whyConfirm: string;
    stop: string;
    confirmedTitle: string;
    confirmedText: string;
    backToSite: string;
    unsubscribeTitle: string;
    unsubscribeText: Record<'digest' | 'confirm', string> & { kinds: (names: string) => string };
    /** Each kind by its name, for the unsubscribe page ("Stop sending these: replies?"). */
    kindName: Record<MailKind, string>;
    unsubscribeButton: string;
    unsubscribedText: string;
    /** A link that no longer works, opened in a browser (a used, expired or newer-replaced token). */
    linkFailedTitle: string;
    linkFailedText: Record<'confirm' | 'unsubscribe', string>;
    toAccount: string;
  }
> = {
  cs: {
    confirmSubject: 'Potvrďte svou e-mailovou adresu',
    confirmIntro: 'Tuto adresu někdo zadal ve svém účtu. Potvrďte ji, prosím, odkazem níže.',
    confirmButton: 'Potvrdit adresu',
    confirmValid: 'Odkaz platí 24 hodin.',
    confirmNotYou: 'Pokud jste to nebyli vy, zprávu ignorujte: nic dalšího vám nepřijde.',
    kindsSubject: (n) =>
      n === 1 ? 'Novinka ze žebříčku' : `${n} ${n >= 2 && n <= 4 ? 'novinky' : 'novinek'} ze žebříčku`,
    kind: {
      live: (s) => `${s} právě vysílá.`,
      reply: (s, a) => `${a ?? 'Někdo'} vám odpověděl(a) u streamera ${s}.`,
      mention: (s, a) => `${a ?? 'Někdo'} vás zmínil(a) u streamera ${s}.`,
      rated: (s) => `${s} má nové hodnocení.`,
    },
    more: (n) => `… a dalších ${n} na webu.`,
    open: 'Otevřít',
    digestSubject: 'Týden v žebříčku',
    digestIntro: (from, to) => `Co se stalo od ${from} do ${to}:`,
    digestZone: (zone) => `Dny jsou uvedeny v časovém pásmu ${zone}.`,
    date: (d) => `${d.getUTCDate()}. ${d.getUTCMonth() + 1}. ${d.getUTCFullYear()}`,
    ratings: 'Nová hodnocení',
    streams: 'Vysílání sledovaných streamerů',
    replies: 'Odpovědi vám',
    total: (n) => `${n}/70`,
    why: 'Tuto zprávu dostáváte, protože jste si ji zvolili v nastavení účtu.',
    whyConfirm: 'Tuto zprávu dostáváte, protože tuto adresu někdo zadal v účtu na tomto webu.',
    stop: 'Odhlásit odběr',
    confirmedTitle: 'Adresa potvrzena',
    confirmedText: 'Děkujeme, e-mailová adresa je potvrzena.',
    backToSite: 'Zpět na web',
    unsubscribeTitle: 'Odhlásit odběr',
    unsubscribeText: {
      kinds: (names) => `Přestat posílat tyto zprávy: ${names}?`,
      digest: 'Přestat posílat týdenní přehled?',
      confirm: 'Zrušit čekající adresu, aby vám už nic nepřišlo?',
    },
    kindName: { live: 'začátky vysílání', reply: 'odpovědi', mention: 'zmínky', rated: 'nová hodnocení' },
    unsubscribeButton: 'Odhlásit',
    unsubscribedText: 'Hotovo: tyto zprávy už vám nepošleme.',
    linkFailedTitle: 'Odkaz už neplatí',
    linkFailedText: {
      confirm:
        'Odkaz byl už použit, vypršel, nebo jste si mezitím nechali poslat novější. Zda je adresa potvrzená, uvidíte v nastavení účtu; tam si můžete poslat nový odkaz.',
      unsubscribe:
        'Odkaz byl už použit nebo patří ke zprávě, která už neplatí. Které zprávy dostáváte, nastavíte v nastavení účtu.',
    },
    toAccount: 'Nastavení účtu',
  },
  en: {
    confirmSubject: 'Confirm your e-mail address',
    confirmIntro: 'This address was entered in an account. Please confirm it with the link below.',
    confirmButton: 'Confirm the address',
    confirmValid: 'The link works for 24 hours.',
    confirmNotYou: 'If this was not you, ignore this message: nothing more will come.',
    kindsSubject: (n) => (n === 1 ? 'An update from the ranking' : `${n} updates from the ranking`),
    kind: {
      live: (s) => `${s} is live now.`,
      reply: (s, a) => `${a ?? 'Someone'} replied to you on ${s}.`,
      mention: (s, a) => `${a ?? 'Someone'} mentioned you on ${s}.`,
      rated: (s) => `${s} has a new rating.`,
    },
    more: (n) => `… and ${n} more on the site.`,
    open: 'Open',
    digestSubject: 'Your week in the ranking',
    digestIntro: (from, to) => `What happened from ${from} to ${to}:`,
    digestZone: (zone) => `Days are given in the ${zone} time zone.`,
    date: (d) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
    ratings: 'New ratings',
    streams: 'Streams of streamers you follow',
    replies: 'Replies to you',
    total: (n) => `${n}/70`,
    why: 'You get this message because you chose it in your account settings.',
    whyConfirm: 'You get this message because this address was entered in an account on this site.',
    stop: 'Unsubscribe',
    confirmedTitle: 'Address confirmed',
    confirmedText: 'Thank you, your e-mail address is confirmed.',
    backToSite: 'Back to the site',
    unsubscribeTitle: 'Unsubscribe',
    unsubscribeText: {
      kinds: (names) => `Stop sending these messages: ${names}?`,
      digest: 'Stop sending the weekly digest?',
      confirm: 'Drop the address waiting for confirmation, so that nothing more comes?',
    },
    kindName: { live: 'streams going live', reply: 'replies', mention: 'mentions', rated: 'new ratings' },
    unsubscribeButton: 'Unsubscribe',
    unsubscribedText: 'Done: these messages will not be sent to you any more.',
    linkFailedTitle: 'This link no longer works',
    linkFailedText: {
      confirm:
        'It was used already, has expired, or a newer one was sent since. Your account settings show whether the address is confirmed, and can send a new link.',
      unsubscribe:
        'It was used already or belongs to a message that no longer counts. Your account settings choose which messages you get.',
    },
    toAccount: 'Account settings',
  },
};
