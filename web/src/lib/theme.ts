export type Theme = 'system' | 'light' | 'dark';

const dark = typeof window === 'undefined' ? null : window.matchMedia('(prefers-color-scheme: dark)');
let chosen: Theme = 'system';

export function initialTheme(): Theme {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem('theme');
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

/** Sets `data-theme` on the page; `system` follows the operating system, also when it changes. */
export function applyTheme(theme: Theme): void {
  chosen = theme;
  document.documentElement.dataset.theme = theme === 'system' ? (dark?.matches ? 'dark' : 'light') : theme;
  if (theme === 'system') localStorage.removeItem('theme');
  else localStorage.setItem('theme', theme);
}

dark?.addEventListener('change', () => {
  if (chosen === 'system') applyTheme('system');
});
