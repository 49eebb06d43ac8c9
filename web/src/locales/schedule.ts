/**
 * The texts of schedules and the chat line (NextStream, CalendarLinks, Upcoming,
 * ScheduleEditor, ChatLine: loaded when needed): apart from the locales of the first view,
 * which stay within its size budget.
 */
export const scheduleEn = {
  'next.title': 'Next stream',
  /** A scheduled stream that has begun and not ended (its streamer may be on or not). */
  'next.started': 'Scheduled since',
  'cal.add': 'Add to calendar',
  'cal.subscribe': 'Subscribe in your calendar app',
  'cal.download': 'Download the .ics file',
  'cal.paste': 'Or paste this address into your calendar (Google Calendar: Other calendars → From URL):',
  'cal.address': 'Calendar address',
  'upcoming.intro':
    'Scheduled streams of the next {days} days, by day. Times are in your time zone ({zone}).',
  'upcoming.live': 'Live now',
  'upcoming.noLive': 'Nobody is live right now.',
  'upcoming.empty': 'Nobody has scheduled a stream for the next {days} days.',
  'upcoming.calendar': 'Every scheduled stream in your calendar',
  'upcoming.liveMark': 'live now',
  'editor.title': 'Stream schedule',
  'editor.help':
    'Kick has no schedules of its own: enter here when you stream. The schedule shows on this page, on the Upcoming page and in the calendars. Saving replaces the whole schedule.',
  'editor.limits':
    'At most {max} streams within the next {days} days, each at most {hours} hours long, no two starting at the same time. Times are in your time zone ({zone}).',
  'editor.row': 'Stream {n}',
  'editor.start': 'Starts',
  'editor.end': 'Ends',
  'editor.streamTitle': 'Title (optional)',
  'editor.remove': 'Remove',
  'editor.removeWhat': 'Remove stream {n}',
  'editor.add': 'Add a stream',
  'editor.save': 'Save the schedule',
  'editor.saved': 'The schedule is saved.',
  'editor.empty': 'No stream scheduled.',
  'editor.incomplete': 'Fill in when each stream starts and ends.',
  'editor.problems': 'Some streams need a change: see the marked ones.',
  'editor.problem.order': 'It must end after it starts.',
  'editor.problem.length': 'A stream is at most {hours} hours long.',
  'editor.problem.past': 'This stream has already ended.',
  'editor.problem.horizon': 'A stream starts within the next {days} days.',
  'editor.problem.sameStart': 'Another stream starts at the same time.',
  'chat.title': 'The rating in your chat',
  'chat.help':
    "A chat command can answer with this site's rating. As a moderator of your channel, type the line for the bot you use into your chat:",
  'chat.lang': 'Language of the answer',
  'chat.preview': 'The command answers:',
  'chat.notPublic': 'Until the streamer is rated, the command answers "Streamer not found".',
  'chat.copy': 'Copy',
  'chat.copied': 'Copied',
  'chat.copyWhat': 'Copy the command for {bot}',
};

export type ScheduleKey = keyof typeof scheduleEn;

export const scheduleCs: Record<ScheduleKey, string> = {
  'next.title': 'Příští stream',
  'next.started': 'Naplánováno od',
  'cal.add': 'Přidat do kalendáře',
  'cal.subscribe': 'Odebírat v aplikaci kalendáře',
  'cal.download': 'Stáhnout soubor .ics',
  'cal.paste':
    'Nebo tuto adresu vložte do svého kalendáře (Kalendář Google: Další kalendáře → Z adresy URL):',
  'cal.address': 'Adresa kalendáře',
  'upcoming.intro':
    'Naplánované streamy na příštích {days} dní, po dnech. Časy jsou ve vašem časovém pásmu ({zone}).',
  'upcoming.live': 'Právě živě',
  'upcoming.noLive': 'Teď nikdo nestreamuje.',
  'upcoming.empty': 'Na příštích {days} dní nikdo stream nenaplánoval.',
  'upcoming.calendar': 'Všechny naplánované streamy ve vašem kalendáři',
  'upcoming.liveMark': 'právě živě',
  'editor.title': 'Rozvrh streamů',
  'editor.help':
    'Kick vlastní rozvrhy nemá: zapište sem, kdy streamujete. Rozvrh se ukáže na této stránce, v Programu a v kalendářích. Uložení nahradí celý rozvrh.',
  'editor.limits':
    'Nejvýše {max} streamů v příštích {days} dnech, každý nejvýše {hours} hodin, žádné dva se stejným začátkem. Časy jsou ve vašem časovém pásmu ({zone}).',
  'editor.row': 'Stream {n}',
  'editor.start': 'Začátek',
  'editor.end': 'Konec',
  'editor.streamTitle': 'Název (nepovinný)',
  'editor.remove': 'Odebrat',
  'editor.removeWhat': 'Odebrat stream {n}',
  'editor.add': 'Přidat stream',
  'editor.save': 'Uložit rozvrh',
  'editor.saved': 'Rozvrh je uložen.',
  'editor.empty': 'Žádný naplánovaný stream.',
  'editor.incomplete': 'U každého streamu vyplňte začátek a konec.',
  'editor.problems': 'Některé streamy je třeba upravit: viz označené.',
  'editor.problem.order': 'Konec musí být po začátku.',
  'editor.problem.length': 'Stream trvá nejvýše {hours} hodin.',
  'editor.problem.past': 'Tento stream už skončil.',
  'editor.problem.horizon': 'Stream musí začít v příštích {days} dnech.',
  'editor.problem.sameStart': 'Ve stejnou dobu začíná jiný stream.',
  'chat.title': 'Hodnocení ve vašem chatu',
  'chat.help':
    'Příkaz v chatu může odpovídat hodnocením z tohoto webu. Jako moderátor svého kanálu napište do chatu řádek pro bota, kterého používáte:',
  'chat.lang': 'Jazyk odpovědi',
  'chat.preview': 'Příkaz odpoví:',
  'chat.notPublic': 'Dokud streamer není ohodnocen, příkaz odpovídá „Streamer not found“.',
  'chat.copy': 'Kopírovat',
  'chat.copied': 'Zkopírováno',
  'chat.copyWhat': 'Kopírovat příkaz pro {bot}',
};

/** The command the lines add, in the answer's language (`!hodnoceni`, as issue 43 names it). */
export const CHAT_COMMAND = { cs: 'hodnoceni', en: 'rating' } as const;
