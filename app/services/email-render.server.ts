import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { TEMPLATE_VARIABLES } from "~/schemas/email";
import { registerAccountCache } from "./account-caches.server";
import { Invalid } from "~/utils/domain-errors";
import { parseSandboxed, renderMetered, sandbox } from "./template-sandbox.server";

/**
 * Email templates are Handlebars with escaping on (docs/decisions/0011), rendered in the sandboxed
 * environment shared with the estimate terms (docs/decisions/0034): partials, unescaped output
 * (`{{{x}}}`, `{{& x}}`) and blocks nested too deep are refused when a template is saved and again
 * before it is compiled; each render runs within a budget. Compiled templates of saved templates are
 * cached per account by the source's hash.
 */
// The two objects themselves are known too (`{{#with contact}}`).
// `estimate.revised` is true on a supplement (`{{#if estimate.revised}}…{{/if}}`; docs/decisions/0053).
const KNOWN = new Set<string>([...TEMPLATE_VARIABLES, "contact", "assessment", "additionalMessage", "estimate", "estimate.revised"]);

export interface TemplateContext {
  contact: { firstName: string; lastName: string; email: string };
  assessment: { title: string; vehicle: string; estimatedCost: string };
  date: string;
  additionalMessage?: string;
  /** The customer's page for the estimate (/e/{token}); a template without it gets it appended. */
  estimateLink?: string;
  /**
   * The version (docs/decisions/0053): its number (`1A2B3C4D-S01`) and label (Original, S01…); on a
   * supplement `revised`, the total of the version it is compared with and the difference. A
   * template that names none of these gets a revised estimate's subject and opening paragraph.
   */
  estimate?: {
    number: string;
    versionLabel: string;
    revised: boolean;
    total: string;
    previousTotal: string;
    previousLabel: string;
    previousApproved: boolean;
    difference: string;
  };
}

type Field = "subject" | "htmlContent";

const refuse = (field: Field, message: string) => new Invalid(message, { fields: { [field]: message } });
const parse = (source: string, field: Field) => parseSandboxed(source, { field, known: KNOWN, allowUnescaped: false });

/** Checks a template's subject and content: 400 when either does not compile; the unknown variables as warnings. */
export function checkTemplate({ subject, htmlContent }: { subject: string; htmlContent: string }) {
  const warnings = [...parse(subject, "subject").warnings, ...parse(htmlContent, "htmlContent").warnings];
  return { warnings };
}

/**
 * Compiled templates kept per worker, in bytes (estimated): a compiled template costs about 1 KiB
 * per `{{…}}` on top of its text (a 100,000-character template full of variables is 6–8 MiB), so
 * the cache is bounded by that estimate, least recently used out first. A template bigger than the
 * whole budget is compiled for its message and not kept.
 */
export const TEMPLATE_CACHE_BYTES = 32 * 1024 * 1024;
type Compiled = HandlebarsTemplateDelegate<TemplateContext>;

/** A generous estimate of a compiled template's memory (measured: 0.9–1.3 KiB per expression, 3 bytes per character). */
export const compiledSizeEstimate = (source: string) => 4 * source.length + 1536 * (source.split("{{").length - 1) + 1024;

declare global {
  var __compiledEmailTemplates: LRUCache<string, Compiled> | undefined;
}
const globalForTemplates = globalThis;
const cache = (globalForTemplates.__compiledEmailTemplates ??= new LRUCache<string, Compiled>({
  maxSize: TEMPLATE_CACHE_BYTES,
  maxEntrySize: TEMPLATE_CACHE_BYTES,
}));

const sourceHash = (source: string) => createHash("sha256").update(source).digest("hex");

/**
 * The subject is a plain-text header, not HTML: rendered without HTML escaping (line breaks are
 * removed after). `keep: false` (a preview of text not saved yet) compiles without caching.
 */
function compiled(ownerId: string, source: string, field: Field, keep: boolean): Compiled {
  const key = `${ownerId}:${field === "subject" ? "s" : "h"}:${sourceHash(source)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const { program } = parse(source, field);
  const fn = sandbox.compile<TemplateContext>(program, { strict: false, noEscape: field === "subject" });
  if (keep) cache.set(key, fn, { size: compiledSizeEstimate(source) });
  return fn;
}

/** Settings → System → Clear Cache: drops this account's compiled templates; answers how many. */
export function clearTemplateCache(ownerId: string) {
  let cleared = 0;
  for (const key of [...cache.keys()]) {
    if (key.startsWith(`${ownerId}:`)) {
      cache.delete(key);
      cleared += 1;
    }
  }
  return cleared;
}

registerAccountCache({ name: "Compiled email templates", clear: clearTemplateCache });

function run(fn: Compiled, context: TemplateContext, field: Field) {
  try {
    return renderMetered(fn, context);
  } catch (error) {
    throw refuse(field, `Template could not be rendered: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** Plain text from the rendered HTML, for the text part of the message. */
export function htmlToText(html: string) {
  return html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)))
    .replace(/&#(\d{1,7});/g, (_, dec: string) => String.fromCodePoint(Math.min(Number(dec), 0x10ffff)))
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Renders a template for one message. The subject is one header line: any line break a variable
 * brought in is collapsed. The additional message (escaped, its lines kept) follows the content.
 * `preview`: text typed into the dialog, not saved — compiled for this answer and not kept (every
 * keystroke's version would otherwise stay in memory).
 */
export function renderTemplate(
  ownerId: string,
  template: { subject: string; htmlContent: string },
  context: TemplateContext,
  { preview = false }: { preview?: boolean } = {},
) {
  const subject = run(compiled(ownerId, template.subject, "subject", !preview), context, "subject").replace(/\s+/g, " ").trim();
  let html = run(compiled(ownerId, template.htmlContent, "htmlContent", !preview), context, "htmlContent");
  if (context.additionalMessage) {
    html += `\n<p>${escapeHtml(context.additionalMessage).replace(/\r?\n/g, "<br>")}</p>`;
  }
  return { subject, html, text: htmlToText(html) };
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Spec §9: USD; a cost not known yet reads as the Estimates screen shows it. */
export const formatCost = (cost: number | null | undefined) => (cost === null || cost === undefined ? "TBD" : usd.format(cost));

/** `{{date}}`: the day in the account's locale (en-US until accounts carry a language). */
export const formatMailDate = (date: Date, locale = "en-US") => new Intl.DateTimeFormat(locale, { dateStyle: "long" }).format(date);

/** What the dialog's preview fills the variables with. */
export const SAMPLE_CONTEXT: TemplateContext = {
  contact: { firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com" },
  assessment: { title: "Front bumper and headlight", vehicle: "2021 Toyota Camry", estimatedCost: formatCost(1250) },
  date: formatMailDate(new Date()),
  estimateLink: "https://dealer.example.com/e/sample-link",
  estimate: {
    number: "1A2B3C4D-S01",
    versionLabel: "S01",
    revised: true,
    total: formatCost(1250),
    previousTotal: formatCost(1150),
    previousLabel: "Original",
    previousApproved: true,
    difference: "+$100.00",
  },
};

/** The template used when the account has none (or none is chosen and none is its default). */
export const BUILT_IN_TEMPLATE = {
  subject: "Your estimate: {{assessment.title}}",
  htmlContent: [
    "<p>Dear {{contact.firstName}} {{contact.lastName}},</p>",
    "<p>Please find attached the estimate for your {{assessment.vehicle}} ({{assessment.title}}).</p>",
    "<p>Estimated cost: <strong>{{assessment.estimatedCost}}</strong></p>",
    "<p>Date: {{date}}</p>",
    '<p>View, approve or decline it online: <a href="{{estimateLink}}">{{estimateLink}}</a></p>',
  ].join("\n"),
};
