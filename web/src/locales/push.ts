/**
 * The texts of push notifications on the account page (PushSettings, loaded when the page is
 * opened): apart from the locales of the first view, which stay within its size budget.
 */
export const pushEn = {
  'push.title': 'Notifications on this device',
  'push.hint':
    'Messages arrive even with the page closed. Choose what you want to hear about; this applies to this device and browser only.',
  'push.ios':
    'On iPhone and iPad, first add the site to your home screen (Share → Add to Home Screen) and turn notifications on from there.',
  'push.unsupported': 'This browser cannot show notifications.',
  'push.denied': 'Notifications are blocked for this site in your browser. Allow them in the site settings.',
  'push.unavailable':
    "This browser's push service did not take the subscription (it may be off or unreachable). Try again later or in another browser.",
  'push.kind.live': 'A streamer I follow goes live',
  'push.kind.reply': 'Replies to my comments',
  'push.kind.mention': 'Mentions (@name)',
  'push.kind.rated': 'A new rating of my channel',
  'push.on': 'Turn on notifications',
  'push.save': 'Save choice',
  'push.off': 'Turn off on this device',
  'push.test': 'Send a test message',
  'push.enabled': 'Notifications are on for this device.',
  'push.saved': 'Saved.',
  'push.disabled': 'Notifications are off for this device.',
  'push.testSent': 'A test message is on its way.',
  'push.pickOne': 'Choose at least one.',
  'push.others': 'Your other devices',
  'push.device': 'Added {added}',
  'push.lastOk': 'Last message delivered {when}.',
  'push.neverOk': 'Nothing delivered yet.',
  'push.remove': 'Remove',
  'push.removed': 'That device will get no more messages.',
};

export type PushKey = keyof typeof pushEn;

export const pushCs: Record<PushKey, string> = {
  'push.title': 'Oznámení na tomto zařízení',
  'push.hint':
    'Zprávy přijdou i se zavřenou stránkou. Vyberte, o čem chcete vědět; platí jen pro toto zařízení a prohlížeč.',
  'push.ios':
    'Na iPhonu a iPadu nejdřív přidejte stránku na plochu (Sdílet → Přidat na plochu) a oznámení zapněte z ní.',
  'push.unsupported': 'Tento prohlížeč oznámení neumí.',
  'push.denied': 'Oznámení máte pro tento web v prohlížeči zakázaná. Povolte je v nastavení stránky.',
  'push.unavailable':
    'Push služba tohoto prohlížeče odběr nepřijala (může být vypnutá nebo nedostupná). Zkuste to později nebo v jiném prohlížeči.',
  'push.kind.live': 'Sledovaný streamer začal vysílat',
  'push.kind.reply': 'Odpovědi na moje komentáře',
  'push.kind.mention': 'Zmínky (@jméno)',
  'push.kind.rated': 'Nové hodnocení mého kanálu',
  'push.on': 'Zapnout oznámení',
  'push.save': 'Uložit výběr',
  'push.off': 'Vypnout na tomto zařízení',
  'push.test': 'Poslat zkušební zprávu',
  'push.enabled': 'Oznámení jsou na tomto zařízení zapnutá.',
  'push.saved': 'Uloženo.',
  'push.disabled': 'Oznámení jsou na tomto zařízení vypnutá.',
  'push.testSent': 'Zkušební zpráva je na cestě.',
  'push.pickOne': 'Vyberte aspoň jednu možnost.',
  'push.others': 'Vaše další zařízení',
  'push.device': 'Přidáno {added}',
  'push.lastOk': 'Poslední zpráva doručena {when}.',
  'push.neverOk': 'Zatím nic nedoručeno.',
  'push.remove': 'Odebrat',
  'push.removed': 'To zařízení už žádné zprávy nedostane.',
};
