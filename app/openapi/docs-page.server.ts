import { isRecord } from "~/utils/unknown-values";
import { openApiDocument } from "./document.server";

/** `/api/docs`: the description as one server-rendered page (no script: kiosks and JavaScript off read it too). */

type Json = Record<string, unknown>;

/** The description read as plain JSON: a list's objects, an object's fields that are objects. */
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const entries = (value: unknown): [string, Json][] => (isRecord(value) ? Object.entries(value).filter((entry): entry is [string, Json] => isRecord(entry[1])) : []);

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

const escape = (text: unknown) => String(text ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** Inline code (`x`) of the descriptions, the only markup they use. */
const prose = (text: unknown) => escape(text).replace(/`([^`]+)`/g, "<code>$1</code>");

function schemaText(schema: unknown) {
  // A scrollable region: reachable from the keyboard (WCAG 2.1.1).
  return `<pre tabindex="0">${escape(JSON.stringify(schema, null, 2))}</pre>`;
}

function operation(method: string, path: string, op: Json) {
  const params = records(op.parameters);
  const body = isRecord(op.requestBody) && isRecord(op.requestBody.content) ? entries(op.requestBody.content) : undefined;
  const responses = entries(op.responses);
  const security = Array.isArray(op.security) && op.security.length ? "Session cookie or Bearer token" : "None";
  const id = escape(op.operationId);
  return `<section class="op" id="${id}">
<h3><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>
<p><strong>${prose(op.summary)}</strong></p>
${op.description ? `<p>${prose(op.description)}</p>` : ""}
<p class="meta">Operation <code>${id}</code> · Authentication: ${security}</p>
${
  params.length
    ? `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>${params
        .map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td>${p.required ? "yes" : "no"}</td><td>${schemaText(p.schema)}</td></tr>`)
        .join("")}</tbody></table>`
    : ""
}
${
  body
    ? `<h4>Request body</h4>${body
        .map(([type, media]) => `<p><code>${escape(type)}</code></p>${schemaText(media.schema)}${media.example !== undefined ? `<p>Example</p>${schemaText(media.example)}` : ""}`)
        .join("")}`
    : ""
}
<h4>Responses</h4>
<table><thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead><tbody>${responses
    .map(([status, r]) => {
      const content = isRecord(r.content) ? entries(r.content) : undefined;
      const headers = isRecord(r.headers) ? ` Headers: ${Object.keys(r.headers).map((h) => `<code>${escape(h)}</code>`).join(", ")}.` : "";
      const shown = content ? content.map(([type, media]) => `<p><code>${escape(type)}</code></p>${schemaText(media.schema)}`).join("") : "";
      return `<tr><td>${escape(status)}</td><td>${prose(r.description)}${headers}</td><td>${shown}</td></tr>`;
    })
    .join("")}</tbody></table>
</section>`;
}

let page: string | undefined;

export function docsPage() {
  if (page) return page;
  const doc = openApiDocument();
  const byTag = new Map<string, string[]>();
  for (const [path, item] of entries(doc.paths)) {
    for (const [method, op] of entries(item)) {
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === "string" ? op.tags[0] : "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(method, path, op)]);
    }
  }
  const tags = [...byTag.keys()];
  const slug = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  page = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)} — reference</title>
<meta name="description" content="The JSON API's reference, generated from its OpenAPI description">
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#1a1b1e;background:#fff}
code,pre{font-family:ui-monospace,monospace;font-size:.875rem}pre{background:#f1f3f5;padding:.5rem;overflow-x:auto;max-height:24rem;margin:0}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #dee2e6;padding:.25rem .5rem;text-align:left;vertical-align:top}
.op{border-top:1px solid #ced4da;padding:.5rem 0}.method{display:inline-block;min-width:4.5rem;padding:0 .5rem;border-radius:4px;color:#fff;background:#495057;font-size:.875rem}
.get{background:#1864ab}.post{background:#237032}.put{background:#a35200}.delete{background:#c92a2a}.meta{color:#495057;font-size:.875rem}
a{color:#1864ab}
</style></head>
<body><main>
<h1>${escape(doc.info.title)} ${escape(doc.info.version)}</h1>
<p>${prose(doc.info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
<nav aria-label="Areas"><ul>${tags.map((t) => `<li><a href="#${slug(t)}">${escape(t)}</a></li>`).join("")}</ul></nav>
${tags.map((t) => `<h2 id="${slug(t)}">${escape(t)}</h2>${(byTag.get(t) ?? []).join("\n")}`).join("\n")}
<h2 id="schemas">Schemas</h2>
${Object.entries(doc.components?.schemas ?? {})
  .map(([name, schema]) => `<h3 id="schema-${escape(name)}">${escape(name)}</h3>${schemaText(schema)}`)
  .join("\n")}
</main></body></html>`;
  return page;
}
