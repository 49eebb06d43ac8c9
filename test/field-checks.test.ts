import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPOKEN } from '../web/src/lib/field-checks.ts';

/**
 * The browser checks a form's fields itself (`required`, `maxlength`, `type="email"`, ...) and
 * says what is wrong in its own language; web/src/lib/field-checks.ts says it in the page's,
 * for the whole page at once. Here the source keeps to what it says: a field asking the browser
 * for another check, or a page or form that escapes the listener, would speak the browser's
 * language again (the walks read two of the messages in Czech).
 */
const WEB = 'web/src';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.svelte') ? [join(dir, e.name)] : [],
  );

/** Each `<input>`, `<textarea>` and `<select>` tag of `text`, whole (its `{...}` may hold `>`). */
function fieldTags(text: string): string[] {
  const tags: string[] = [];
  for (const m of text.matchAll(/<(input|textarea|select)\b/g)) {
    let depth = 0;
    let quote = '';
    let i = m.index;
    for (; i < text.length; i++) {
      const c = text[i];
      if (quote) quote = c === quote ? '' : quote;
      else if (c === '"' || c === "'" || c === '`') quote = c;
      else if (c === '{') depth++;
      else if (c === '}') depth--;
      else if (c === '>' && depth === 0) break;
    }
    tags.push(text.slice(m.index, i + 1));
  }
  return tags;
}

/** The browser's checks a tag asks for, by `ValidityState` flag, or the words that no flag speaks. */
function checksOf(tag: string): string[] {
  const has = (name: string) => new RegExp(`[\\s{]${name}(?=[\\s=}/>])`).test(tag);
  const type = /\stype="([^"]+)"/.exec(tag)?.[1] ?? (tag.startsWith('<input') ? 'text' : '');
  const step = /\sstep="([^"]*)"/.exec(tag)?.[1];
  const asked: [boolean, string][] = [
    [has('required'), 'valueMissing'],
    [has('maxlength'), 'tooLong'],
    [has('minlength'), 'tooShort'],
    [has('min') && /^(number|datetime-local)$/.test(type), 'rangeUnderflow'],
    [has('max') && /^(number|datetime-local)$/.test(type), 'rangeOverflow'],
    [type === 'number' || type === 'datetime-local', 'badInput'],
    // A whole number is what the message asks for: another step would need other words.
    [type === 'number', step === undefined || step === '1' ? 'stepMismatch' : `step="${step}"`],
    [type === 'email' || type === 'url', 'typeMismatch'],
    [/^(date|time|month|week|tel|range|color)$/.test(type), `type="${type}" with checks of its own`],
    [has('pattern'), 'patternMismatch'],
  ];
  return asked.filter(([yes]) => yes).map(([, flag]) => flag);
}

describe("the browser's checks of a field in the page's language", () => {
  const files = sources(WEB).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

  it('every check a field of web/src asks the browser for is one lib/field-checks.ts says', () => {
    const asked = files.flatMap(({ file, text }) =>
      fieldTags(text).flatMap((tag) => checksOf(tag).map((check) => ({ file, check }))),
    );
    const unsaid = asked.filter(({ check }) => !(SPOKEN as readonly string[]).includes(check));
    expect(unsaid).toEqual([]);
    // The scan sees the fields: the report's reason, the suggestion's name and their like.
    const seen = new Set(asked.map((a) => a.check));
    for (const flag of ['valueMissing', 'tooLong', 'tooShort', 'typeMismatch', 'rangeOverflow', 'badInput']) {
      expect(seen).toContain(flag);
    }
    expect(asked.filter((a) => a.check === 'valueMissing').length).toBeGreaterThanOrEqual(17);
  });

  it('is set for the whole page before it is drawn, and no form or field has a mechanism of its own', () => {
    const html = readdirSync('web').filter((f) => f.endsWith('.html'));
    expect(html).toEqual(['index.html']);
    expect(readFileSync('web/index.html', 'utf8')).toContain('src="/src/main.ts"');
    const main = readFileSync(join(WEB, 'main.ts'), 'utf8');
    const set = main.indexOf('speakFieldChecks(document, ');
    expect(set).toBeGreaterThan(-1);
    expect(set).toBeLessThan(main.indexOf('hydrate(App'));
    const own = files.filter(({ text }) =>
      /novalidate|oninvalid|setCustomValidity|<svelte:options[^>]*customElement/i.test(text),
    );
    expect(own.map((f) => f.file)).toEqual([]);
  });
});
