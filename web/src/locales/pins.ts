/**
 * The pin action's texts (PinAction.svelte, loaded only by those who may pin): apart from the
 * locales of the first view, which stay within its size budget.
 */
export const pinsEn = {
  'pins.pin': 'Pin',
  'pins.unpin': 'Unpin',
  'pins.pinTitle': 'Show this comment first; the one pinned before is unpinned',
};

export const pinsCs: Record<keyof typeof pinsEn, string> = {
  'pins.pin': 'Připnout',
  'pins.unpin': 'Odepnout',
  'pins.pinTitle': 'Zobrazit tento komentář jako první; dříve připnutý se odepne',
};
