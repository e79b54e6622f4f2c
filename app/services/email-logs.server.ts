import { countEstimatesSentSince, countLogs, findLog, findLogs, type EmailLogRecord } from "~/models/email-log.server";
import { scopeFor } from "~/models/owner-scope.server";
import { lastPageAtMost, listTotal, pageAndNext, screenCursorsOf, type ListCursor } from "~/schemas/list-cursor";
import type { ListQuery } from "~/schemas/list-query";
import type { Actor } from "./actor";
import { ownership, presentOwned } from "./owned-json.server";
import { NotFound } from "~/utils/domain-errors";

// What the Email Center and GET /api/email-logs show of the outbox's log entries (the sending and
// the worker are in email-delivery.server.ts).

export interface EmailAttemptJson {
  at: string;
  finishedAt: string | null;
  outcome: string;
  error: string | null;
  response: string | null;
}

export interface EmailLogJson {
  id: string;
  ownerId: string;
  owner?: { id: string; name: string | null };
  kind: "estimate" | "notification";
  recipientEmail: string;
  subject: string;
  status: string;
  /** The status as the Logs tab words it ("saved (local drop, not sent)"). */
  statusLabel: string;
  localDrop: boolean;
  assessmentId: string | null;
  assessmentTitle: string | null;
  messageId: string;
  lastError: string | null;
  nextAttemptAt: string | null;
  attempts: EmailAttemptJson[];
  sentAt: string | null;
  /** How the dealer settled an unknown email (docs/decisions/0054); null while it is not. */
  settlement: { action: "resent" | "delivered"; at: string; byId: string | null; resentAs: string | null } | null;
  createdAt: string;
  updatedAt: string;
}

export interface EmailLogDetailJson extends EmailLogJson {
  html: string;
  text: string;
}

function iso(d: Date): string;
function iso(d: Date | string | undefined | null): string | null;
function iso(d: Date | string | undefined | null) {
  return d ? new Date(d).toISOString() : null;
}

function statusLabel(record: Pick<EmailLogRecord, "status" | "localDrop" | "settlement">) {
  if (record.status === "saved") return "saved (local drop, not sent)";
  if (record.status === "unknown") return record.settlement?.action === "resent" ? "unknown (resent)" : "unknown (not resent)";
  return record.status;
}

// Its own timestamps (the log's dates are read as they are): ownership put first with
// Object.assign, as ownedJson does, not a leading spread (owned-json.server.ts).
function toJson(record: EmailLogRecord, owners?: Map<string, string>): EmailLogJson {
  return Object.assign(ownership(record, owners), {
    kind: record.kind,
    recipientEmail: record.recipientEmail,
    subject: record.subject,
    status: record.status,
    statusLabel: statusLabel(record),
    localDrop: Boolean(record.localDrop),
    assessmentId: record.assessmentId ? String(record.assessmentId) : null,
    assessmentTitle: record.assessmentTitle ?? null,
    messageId: record.messageId,
    lastError: record.lastError ?? null,
    nextAttemptAt: record.status === "pending" ? iso(record.nextAttemptAt) : null,
    attempts: (record.attempts ?? []).map((a) => ({
      at: iso(a.at),
      finishedAt: iso(a.finishedAt),
      outcome: a.outcome,
      error: a.error ?? null,
      response: a.response ?? null,
    })),
    sentAt: iso(record.sentAt),
    settlement: record.settlement
      ? {
          action: record.settlement.action,
          at: iso(record.settlement.at),
          byId: record.settlement.by ? String(record.settlement.by) : null,
          resentAs: record.settlement.resentAs ? String(record.settlement.resentAs) : null,
        }
      : null,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
  });
}

export const present = (actor: Actor, records: EmailLogRecord[]) => presentOwned(actor, records, toJson);

const logNotFound = () => new NotFound("Email log not found");

/** `GET /api/email-logs`: the caller's logs (an admin's: everyone's), newest first; `q`, `limit`, `offset` or `cursor`: a page, and the next one's cursor when there is more. */
export async function listEmailLogsPage(actor: Actor, { q, limit, offset = 0, cursor, updatedSince: since }: Partial<ListQuery> = {}, { total = false } = {}) {
  const scope = scopeFor(actor);
  const read = await findLogs({ scope, q, skip: offset, limit: limit && limit + 1, cursor, since });
  const { page, next } = pageAndNext(read, limit, cursor, since);
  const count = total ? await listTotal({ limit, offset, cursor }, read, () => countLogs({ scope, q, since })) : undefined;
  return { items: await present(actor, page), next, records: page, total: count };
}

/** One log with its rendered message and attempts; 404 for another account's. */
export async function getEmailLog(actor: Actor, id: string): Promise<EmailLogDetailJson> {
  const record = await findLog({ scope: scopeFor(actor), id });
  if (!record) throw logNotFound();
  return { ...(await present(actor, [record]))[0], html: record.html, text: record.text };
}

/** How many of the caller's logs the search matches (the Logs tab's label). */
export const countEmailLogs = (actor: Actor, q: string | undefined) => countLogs({ scope: scopeFor(actor), q });

/**
 * The Logs tab: how many match, and one page by cursor (the API list's own read) with the cursors of
 * the Older and Newer pages when there are any. `offset` is an old bookmark's `?page=`.
 */
export async function emailLogsPage(actor: Actor, { q, cursor, offset = 0, pageSize }: { q?: string; cursor?: ListCursor; offset?: number; pageSize: number }) {
  const scope = scopeFor(actor);
  const matched = await countEmailLogs(actor, q);
  const from = lastPageAtMost(offset, matched, pageSize);
  const list = await listEmailLogsPage(actor, { q, limit: pageSize, offset: from, cursor });
  const cursors = await screenCursorsOf(list, cursor, from, (back) => findLogs({ scope, q, limit: 1, cursor: back }));
  return { logs: list.items, matched, ...cursors };
}

/**
 * Stat cards, over estimate emails only (the automatic notices are not estimates): sent today (since
 * midnight, server time) and the success rate (delivered ÷ all, rounded; 0 without any). Only a mail
 * server's acceptance counts: a message saved to the local drop was not delivered.
 */
export async function emailLogStats(actor: Actor) {
  const scope = scopeFor(actor);
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const [all, sent, sentToday] = await Promise.all([
    countLogs({ scope, kind: "estimate" }),
    countLogs({ scope, kind: "estimate", status: "sent" }),
    countEstimatesSentSince({ scope, since: midnight }),
  ]);
  return { sentToday, successRate: all === 0 ? 0 : Math.round((sent / all) * 100) };
}
