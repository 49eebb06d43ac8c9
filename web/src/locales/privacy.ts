/**
 * The privacy page's texts (Privacy.svelte, loaded when opened): apart from the locales of
 * the first view, which stay within its size budget.
 */
export const privacyEn = {
  'privacy.intro':
    'The site serves a community in the EU. It stores only what it needs to rate streamers and to talk about them, sells or passes on nothing, and uses no advertising or analytics cookies.',
  'privacy.accountTitle': 'An account from Twitch or Kick',
  'privacy.account':
    "When you sign in we keep only your id, login, display name and avatar address from the provider's profile, and when you last signed in. We do not store an e-mail address or a password from the provider. With your account we also keep the guest tag (see below) of the last {addresses} addresses you used the site from while signed in, so that after a ban an account opened from one of them waits for a moderator before its comments show.",
  'privacy.contribTitle': 'What you do here',
  'privacy.contrib':
    'Comments (with name and time), likes, audience scores, reports of comments and, in a team, your community ratings and membership.',
  'privacy.notifyTitle': 'Follows and notifications',
  'privacy.notify':
    "The streamers you follow and your notifications (replies, mentions, likes, your comment hidden, ratings, streams going live) are kept with your account. When you turn on push messages on a device, we store the address its browser's push service gave it (Google, Mozilla, Apple or Microsoft) and the keys that encrypt the messages; the messages go through that service. A device's subscription goes when you turn it off, when its push service says it is no longer valid, or with your account; a record of each message sent is kept {pushDays} days.",
  'privacy.mail':
    "An e-mail address you give is used only once you confirm it, and only for the messages you choose; they go through the operator's mail server, and each carries a link that turns it off. The address and your choices go when you remove the address or delete your account; a record of each message sent (to which address, what it told) is kept {mailDays} days, and goes with the account.",
  'privacy.guestTitle': 'Posting without signing in',
  'privacy.guest':
    'With a guest comment or suggestion we store a guest tag: a keyed hash (HMAC) of your IP address, never the address itself – it is in neither the database nor the server logs. The tag only stops spam (posting limits, blocking an address for 1 to 365 days); moderators see its first 10 characters.',
  'privacy.sessionsTitle': 'Sessions',
  'privacy.sessions':
    'One necessary cookie keeps you signed in. A session ends when you sign out, after {idle} days unused, and at the latest after {absolute} days; we store when it began and when it was last used. A comment posted as a guest sets a second necessary cookie: the numbers of the comments this browser posted as a guest, so that you can delete them; it lapses {idle} days after the last one. Your language and theme are kept by your browser only.',
  'privacy.auditTitle': 'Audit log',
  'privacy.audit':
    'What administrators, moderators and team owners do is written to the audit log, so that someone answers for it. When you delete your account, only the action stays there, not your name.',
  'privacy.keepTitle': 'For how long',
  'privacy.keep':
    'Comments, likes, votes and ratings stay until you or a moderator change or delete them, or until you delete your account. Backups, when the operator turns them on, hold the same data until newer ones replace them.',
  'privacy.leaveTitle': 'How to leave',
  'privacy.leave':
    'Open Your data in the menu at the top right: download everything we store about you (a JSON file) or delete your account. Your comments can stay as “Anonym” or go with the account.',
  'privacy.leaveLink': 'Go to Your data',
  'privacy.operatorTitle': 'Who runs this site',
  'privacy.operator': 'This site is run by {name}.',
  'privacy.operatorContact': 'Contact:',
  'privacy.operatorUnset': 'The operator of this site has not named themselves here yet.',
  'privacy.ownTitle': 'Deleting your guest comments',
  'privacy.own':
    'A comment you posted without signing in can be deleted from the same browser: it shows a Delete button while your session lasts (up to {absolute} days). From another browser, ask the operator.',
};

export const privacyCs: Record<keyof typeof privacyEn, string> = {
  'privacy.intro':
    'Web slouží komunitě v EU. Ukládá jen to, co potřebuje k hodnocení streamerů a k diskusi, nikomu to neprodává ani nepředává a nepoužívá reklamní ani analytické cookies.',
  'privacy.accountTitle': 'Účet z Twitche nebo Kicku',
  'privacy.account':
    'Když se přihlásíte, uložíme z vašeho profilu u poskytovatele jen id, přihlašovací jméno, zobrazované jméno a odkaz na avatar, a kdy jste se naposledy přihlásili. E-mail ani heslo od poskytovatele neukládáme. K účtu ukládáme také štítek hosta (viz níže) posledních {addresses} adres, ze kterých jste přihlášeni web používali, aby po zablokování účet založený z některé z nich čekal se svými komentáři na moderátora.',
  'privacy.contribTitle': 'Co na webu děláte',
  'privacy.contrib':
    'Komentáře (se jménem a časem), lajky, hodnocení diváků, nahlášení komentářů a, jste-li v týmu, komunitní hodnocení a členství v týmu.',
  'privacy.notifyTitle': 'Sledování a upozornění',
  'privacy.notify':
    'Streamery, které sledujete, a vaše upozornění (odpovědi, zmínky, lajky, skrytí vašeho komentáře, hodnocení, začátky vysílání) držíme s vaším účtem. Když na zařízení zapnete push oznámení, uložíme adresu, kterou mu dala push služba jeho prohlížeče (Google, Mozilla, Apple nebo Microsoft), a klíče, jimiž se oznámení šifrují; oznámení jdou přes tuto službu. Odběr zařízení zmizí, když ho vypnete, když jeho push služba ohlásí, že už neplatí, nebo s účtem; záznam o každém odeslaném oznámení držíme {pushDays} dní.',
  'privacy.mail':
    'Zadanou e-mailovou adresu použijeme až po jejím potvrzení a jen pro zprávy, které si zvolíte; jdou přes poštovní server provozovatele a každá nese odkaz, kterým ji vypnete. Adresa a vaše volby zmizí, když adresu odeberete nebo smažete účet; záznam o každé odeslané zprávě (komu a co sdělovala) držíme {mailDays} dní a zmizí i s účtem.',
  'privacy.guestTitle': 'Příspěvky bez přihlášení',
  'privacy.guest':
    'U komentáře nebo návrhu hosta uložíme štítek hosta: klíčovaný otisk (HMAC) vaší adresy IP, nikdy adresu samotnou – ta není v databázi ani v záznamech serveru. Štítek slouží jen proti spamu (limity příspěvků, blokace adresy na 1 až 365 dní); moderátoři vidí jeho prvních 10 znaků.',
  'privacy.sessionsTitle': 'Přihlášení',
  'privacy.sessions':
    'Jedna nezbytná cookie drží vaše přihlášení. Přihlášení končí odhlášením, po {idle} dnech nepoužívání a nejpozději po {absolute} dnech; ukládáme, kdy začalo a kdy bylo naposledy použito. Komentář hosta nastaví druhou nezbytnou cookie: čísla komentářů, které tento prohlížeč odeslal jako host, abyste je mohli smazat; platí {idle} dní od posledního z nich. Jazyk a vzhled si pamatuje jen váš prohlížeč.',
  'privacy.auditTitle': 'Záznam změn',
  'privacy.audit':
    'Co udělají správci, moderátoři a vlastníci týmů, se zapisuje do záznamu změn, aby za to někdo odpovídal. Smažete-li účet, zůstane v záznamu jen samotná akce, ne vaše jméno.',
  'privacy.keepTitle': 'Jak dlouho',
  'privacy.keep':
    'Komentáře, lajky, hlasy a hodnocení držíme, dokud je nezměníte nebo nesmažete vy nebo moderátor, nebo dokud nesmažete účet. Zálohy, zapne-li je provozovatel, drží stejná data, dokud je nenahradí novější.',
  'privacy.leaveTitle': 'Jak odejít',
  'privacy.leave':
    'V nabídce vpravo nahoře otevřete Vaše data: stáhnete si vše, co o vás ukládáme (soubor JSON), nebo účet smažete. Komentáře můžete nechat jako „Anonym“, nebo je smazat s účtem.',
  'privacy.leaveLink': 'Přejít na Vaše data',
  'privacy.operatorTitle': 'Kdo stránku provozuje',
  'privacy.operator': 'Stránku provozuje {name}.',
  'privacy.operatorContact': 'Kontakt:',
  'privacy.operatorUnset': 'Provozovatel této stránky se tu zatím neuvedl.',
  'privacy.ownTitle': 'Smazání vlastních komentářů bez přihlášení',
  'privacy.own':
    'Komentář napsaný bez přihlášení smažete ze stejného prohlížeče: dokud trvá vaše relace (nejvýše {absolute} dní), je u něj tlačítko Smazat. Z jiného prohlížeče požádejte provozovatele.',
};
