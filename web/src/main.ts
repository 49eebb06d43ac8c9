import { hydrate, mount } from 'svelte';
import App from './App.svelte';
import { SERVICE_WORKER } from '../../src/shared/pages.ts';
import './app.css';
import { i18n, loadWords, t } from './lib/i18n.svelte.ts';
import { applyTheme, initialTheme } from './lib/theme.ts';
import { speakFieldChecks } from './lib/field-checks.ts';

applyTheme(initialTheme());
// The browser's checks of every form field in the page's language (before any form is drawn).
speakFieldChecks(document, { t, lang: () => i18n.lang });

const target = document.getElementById('app');
if (!target) throw new Error('the page has no #app element');
// The service renders the first view (src/pages/first-view.ts): take it over where it is there,
// in the visitor's language once its words are here (Czech comes with the page; if English
// cannot be fetched, the page stays Czech).
void loadWords(i18n.lang)
  .catch(() => void (i18n.lang = 'cs'))
  .then(() => {
    document.documentElement.lang = i18n.lang;
    if (target.firstChild) hydrate(App, { target });
    else mount(App, { target });
  });

// The service worker shows push messages (public/sw.js); the page is installable with it.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register(SERVICE_WORKER).catch(() => undefined);
}
