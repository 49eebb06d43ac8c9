/**
 * A `<details>` menu or panel that closes by itself (issue 17, bug 6; the bell from stop 71's
 * walk): on a tap outside it, and on Escape, which gives the focus back to its summary. A dialog
 * opened from it takes Escape first, on its own. Used as `use:dismissible`.
 */
export function dismissible(details: HTMLDetailsElement): { destroy: () => void } {
  const close = () => details.removeAttribute('open');
  const outside = (e: PointerEvent) => {
    if (details.open && e.target instanceof Node && !details.contains(e.target)) close();
  };
  const escape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !details.open || document.querySelector('dialog[open]')) return;
    close();
    details.querySelector('summary')?.focus();
  };
  document.addEventListener('pointerdown', outside);
  document.addEventListener('keydown', escape);
  return {
    destroy() {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    },
  };
}
