/** Renders the OpenAPI document as one self-contained HTML page (no scripts, no CDN). */
import { escapeHtml } from '../lib/html.ts';
import { ICON_LINK } from '../shared/site.ts';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  maxLength?: number;
  description?: string;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; schema?: Schema; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

// Inline code between backticks (`\x60`) becomes <code>.
const md = (s: string) =>
  escapeHtml(s)
    .replace(/\x60([^\x60]+)\x60/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

function typeOf(s: Schema | undefined, depth = 0): string {
  if (!s) return 'any';
  if (s.anyOf) return s.anyOf.map((x) => typeOf(x, depth)).join(' | ');
  if (s.type === 'array') return `${typeOf(s.items, depth)}[]`;
  if (s.type === 'object' && s.properties && depth < 2) {
    const fields = Object.entries(s.properties).map(
      ([k, v]) => `${k}${s.required?.includes(k) ? '' : '?'}: ${typeOf(v, depth + 1)}`,
    );
    return `{ ${fields.join(', ')} }`;
  }
  const t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
  return s.maxLength ? `${t} (≤ ${s.maxLength})` : t;
}

export function renderDocs(doc: Document): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (method === 'head') continue;
      const tag = op.tags?.[0] ?? 'Other';
      const params = (op.parameters ?? [])
        .map((p) => `<li><code>${escapeHtml(p.name)}</code> (${p.in}) ${escapeHtml(typeOf(p.schema))}</li>`)
        .join('');
      const body = Object.values(op.requestBody?.content ?? {})[0]?.schema;
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => {
          const schema = Object.values(r.content ?? {})[0]?.schema;
          return `<li><strong>${status}</strong> ${r.description ? md(r.description) : ''}${schema ? ` <code>${escapeHtml(typeOf(schema))}</code>` : ''}</li>`;
        })
        .join('');
      const html = `<section class="op"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
${op.summary ? `<p>${md(op.summary)}</p>` : ''}${op.description ? `<p>${md(op.description).replace(/\n\n/g, '</p><p>')}</p>` : ''}
${params ? `<h4>Query and path</h4><ul>${params}</ul>` : ''}
${body ? `<h4>Body (JSON or form)</h4><p><code>${escapeHtml(typeOf(body))}</code></p>` : ''}
${responses ? `<h4>Responses</h4><ul>${responses}</ul>` : ''}</section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const toc = [...byTag.keys()]
    .map((t) => `<a href="#${encodeURIComponent(t)}">${escapeHtml(t)}</a>`)
    .join(' · ');
  const sections = [...byTag]
    .map(([tag, ops]) => `<h2 id="${encodeURIComponent(tag)}">${escapeHtml(tag)}</h2>${ops.join('\n')}`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
${ICON_LINK}
<title>${escapeHtml(doc.info.title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1d1b26;background:#fff}
@media (prefers-color-scheme:dark){body{color:#ece9f6;background:#121118}code{background:#2a2735}a{color:#a996ff}}
code{background:#f0eef7;padding:.05rem .3rem;border-radius:4px;font-size:.9em}
.op{border:1px solid #8884;border-radius:10px;padding:.25rem 1rem;margin:.75rem 0}
.m{display:inline-block;min-width:4.2rem;text-align:center;border-radius:6px;color:#fff;font-size:.8rem;padding:.1rem .3rem}
.get{background:#1b6e3a}.post{background:#5b3fd9}.put{background:#8a5a00}.delete{background:#b3261e}.patch{background:#555}
h4{margin:.5rem 0 .2rem}ul{margin:.2rem 0}</style></head><body>
<h1>${escapeHtml(doc.info.title)}</h1><p>${md(doc.info.description ?? '')}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p><nav>${toc}</nav>
${sections}</body></html>`;
}
