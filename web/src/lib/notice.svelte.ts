/** A short message the whole page shows (App.svelte), for actions whose component goes away. */
export const notice = $state<{ text: string | null }>({ text: null });
