import type { Provider } from './rules.ts';

/**
 * DECISIONS.md "A line for the chat": how a chat bot's address `/bot/<platform>/<channel>.txt`
 * names each platform, written once for the service (chat-line/line.ts) and the page that
 * shows the commands (pure: the page imports it).
 */
export const BOT_PLATFORMS: Readonly<Record<Provider, 'twitch' | 'kick'>> = {
  provider_a: 'twitch',
  provider_b: 'kick',
};
