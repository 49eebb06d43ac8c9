import { hydrate, mount } from 'svelte';
import App from './App.svelte';
import { SERVICE_WORKER } from '../../src/shared/pages.ts';
import './app.css';
import { i18n, loadWords } from './lib/i18n.svelte.ts';
import { applyTheme, initialTheme } from './lib/theme.ts';

applyTheme(initialTheme());

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
