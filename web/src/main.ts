import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { i18n } from './lib/i18n.svelte.ts';
import { applyTheme, initialTheme } from './lib/theme.ts';

document.documentElement.lang = i18n.lang;
applyTheme(initialTheme());

mount(App, { target: document.getElementById('app')! });
