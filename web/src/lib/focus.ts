import { tick } from 'svelte';

/**
 * After an action that drew anew or removed what had the keyboard's focus (a keyboard walk):
 * once the page shows the outcome, `target()` takes the focus, unless the user has moved it
 * on meanwhile. The browser would leave it at the page's start.
 */
export async function focusLost(target: () => HTMLElement | null | undefined): Promise<void> {
  await tick();
  const at = document.activeElement;
  if (at === null || at === document.body || (at instanceof HTMLButtonElement && at.disabled))
    target()?.focus();
}
