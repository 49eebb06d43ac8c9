const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML element content and quoted attribute values. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** Text without the characters XML 1.0 cannot hold at all (controls, U+FFFE/U+FFFF, lone surrogates). */
export const xmlChars = (s: string) =>
  s.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '',
  );

/** Text made safe for XML (SVG) content and quoted attributes: `xmlChars`, the five specials escaped. */
export const escapeXml = (s: string) => escapeHtml(xmlChars(s));
