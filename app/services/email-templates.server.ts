import {
  clearOtherDefaults,
  countDefaultTemplates,
  countTemplates,
  findTemplate,
  findTemplates,
  insertTemplate,
  removeTemplate,
  replaceTemplate,
  type EmailTemplateRecord,
} from "~/models/email-template.server";
import { scopeFor } from "~/models/owner-scope.server";
import { TEMPLATE_LIMITS, type EmailTemplateInput, type TemplatePreviewInput } from "~/schemas/email";
import { lastPageAtMost, listTotal, pageAndNext, screenCursorsOf, type ListCursor } from "~/schemas/list-cursor";
import type { ListQuery } from "~/schemas/list-query";
import type { Actor } from "./actor";
import { checkTemplate, renderTemplate, SAMPLE_CONTEXT } from "./email-render.server";
import { ownedJson, presentOwned } from "./owned-json.server";
import { countAgainstLimit } from "./rate-limit.server";
import { NotFound, TooMany } from "~/utils/domain-errors";
import { authorize } from "./permissions.server";

export interface EmailTemplateJson {
  id: string;
  ownerId: string;
  owner?: { id: string; name: string | null };
  name: string;
  subject: string;
  htmlContent: string;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

const notFound = () => new NotFound("Template not found");

function toJson(record: EmailTemplateRecord, owners?: Map<string, string>): EmailTemplateJson {
  return ownedJson(record, owners, {
    name: record.name,
    subject: record.subject,
    htmlContent: record.htmlContent,
    isDefault: Boolean(record.isDefault),
  });
}

const present = (actor: Actor, records: EmailTemplateRecord[]) => presentOwned(actor, records, toJson);

/** `GET /api/email-templates`: the caller's (an admin's: everyone's), newest first; `q`, `limit`, `offset` or `cursor`: a page, and the next one's cursor when there is more. */
export async function listEmailTemplatesPage(actor: Actor, { q, limit, offset = 0, cursor, updatedSince: since }: Partial<ListQuery> = {}, { total = false } = {}) {
  const scope = scopeFor(actor);
  const read = await findTemplates({ scope, q, skip: offset, limit: limit && limit + 1, cursor, since });
  const { page, next } = pageAndNext(read, limit, cursor, since);
  const count = total ? await listTotal({ limit, offset, cursor }, read, () => countTemplates({ scope, q, since })) : undefined;
  return { items: await present(actor, page), next, records: page, total: count };
}

/** The Templates tab's figures: the two template cards' and how many the search matches. */
export async function emailTemplateFigures(actor: Actor, q: string | undefined) {
  const scope = scopeFor(actor);
  const [total, defaults, searched] = await Promise.all([
    countTemplates({ scope }),
    countDefaultTemplates({ scope }),
    q ? countTemplates({ scope, q }) : undefined,
  ]);
  return { matched: searched ?? total, stats: { total, defaults } };
}

/** The Templates tab: its figures and one page by cursor with its Older and Newer cursors; `offset` is an old bookmark's `?page=`. */
export async function emailTemplatesPage(actor: Actor, { q, cursor, offset = 0, pageSize }: { q?: string; cursor?: ListCursor; offset?: number; pageSize: number }) {
  const figures = await emailTemplateFigures(actor, q);
  const from = lastPageAtMost(offset, figures.matched, pageSize);
  const list = await listEmailTemplatesPage(actor, { q, limit: pageSize, offset: from, cursor });
  const cursors = await screenCursorsOf(list, cursor, from, (back) => findTemplates({ scope: scopeFor(actor), q, limit: 1, cursor: back }));
  return { templates: list.items, ...figures, ...cursors };
}

export async function getEmailTemplate(actor: Actor, id: string) {
  const record = await findTemplate({ scope: scopeFor(actor), id });
  if (!record) throw notFound();
  return (await present(actor, [record]))[0];
}

/** Creates a template of the caller; 400 when it does not compile; unknown variables come back as warnings. */
export async function createEmailTemplate(actor: Actor, input: EmailTemplateInput) {
  authorize(actor, "catalogue.write");
  const { warnings } = checkTemplate(input);
  const record = await insertTemplate({ ownerId: actor.id, input });
  if (record.isDefault) await clearOtherDefaults({ ownerId: actor.id, exceptId: record._id });
  return { template: (await present(actor, [record]))[0], warnings };
}

export async function updateEmailTemplate(actor: Actor, id: string, input: EmailTemplateInput) {
  authorize(actor, "catalogue.write");
  const { warnings } = checkTemplate(input);
  const record = await replaceTemplate({ scope: scopeFor(actor), id, input });
  if (!record) throw notFound();
  if (record.isDefault) await clearOtherDefaults({ ownerId: String(record.ownerId), exceptId: record._id });
  return { template: (await present(actor, [record]))[0], warnings };
}

/** Copy: "<name> (Copy)", never the default. */
export async function copyEmailTemplate(actor: Actor, id: string) {
  authorize(actor, "catalogue.write");
  const source = await findTemplate({ scope: scopeFor(actor), id });
  if (!source) throw notFound();
  const name = `${source.name} (Copy)`.slice(0, TEMPLATE_LIMITS.name);
  const record = await insertTemplate({
    ownerId: String(source.ownerId),
    input: { name, subject: source.subject, htmlContent: source.htmlContent, isDefault: false },
  });
  return (await present(actor, [record]))[0];
}

export async function deleteEmailTemplate(actor: Actor, id: string) {
  authorize(actor, "catalogue.write");
  const record = await removeTemplate({ scope: scopeFor(actor), id });
  if (!record) throw notFound();
  return (await present(actor, [record]))[0];
}

/**
 * Previews per account and minute (docs/decisions/0034): the dialog asks 300 ms after each pause in
 * typing, so a person stays under it; a script rendering templates in a loop does not.
 */
export const PREVIEW_LIMIT = { max: 60, windowS: 60 };

/** The dialog's preview: the template rendered with sample data; 400 when it does not compile, 429 over the limit. */
export async function previewEmailTemplate(actor: Actor, input: TemplatePreviewInput) {
  // Counted first, always; the check (a parse, bounded by the body's size) runs while the count is
  // written, so a refused template answers at once. Compiling and rendering wait for the count.
  const counted = countAgainstLimit({ key: `template-preview|${actor.id}`, ...PREVIEW_LIMIT });
  let warnings: string[];
  try {
    ({ warnings } = checkTemplate(input));
  } catch (error) {
    counted.catch(() => undefined);
    throw error;
  }
  const retryAfterSeconds = await counted;
  if (retryAfterSeconds !== null) {
    throw new TooMany(`Too many previews: try again in ${retryAfterSeconds} seconds`, { retryAfterSeconds });
  }
  const rendered = renderTemplate(actor.id, input, SAMPLE_CONTEXT, { preview: true });
  return { subject: rendered.subject, html: rendered.html, warnings };
}
