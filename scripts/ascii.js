// The bundle's last step (scripts/bundle.js): its text in ASCII only. V8 keeps a script's source
// for as long as the process runs, and a source with one character outside Latin-1 is kept at
// two bytes per character: an arrow in a comment esbuild keeps made the 4.4 MB bundle 8.7 MB
// of heap. esbuild writes strings and names in ASCII already; what is left (comments, regular
// expressions, legal notices) becomes the same \u escapes, which mean the same character in a
// string, a regular expression or a template, and are plain text in a comment.

/** `text` with every character outside ASCII as its \u escape (beyond U+FFFF: its two surrogates). */
export function asciiOnly(text) {
  // Without the u flag the pattern matches each UTF-16 unit, surrogates one by one.
  return text.replace(/[^\0-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
