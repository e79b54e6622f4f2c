import { z } from "zod";
import { CURSOR_INVALID, decodeCursor, type ListCursor } from "./list-cursor";

export const SEARCH_MAX_LENGTH = 100;
export const LIST_MAX_LIMIT = 1000;

const whole = (name: string, min: number, max: number) =>
  z.preprocess(
    // Absent is absent; an empty value (`offset=`) is not a number and is refused like any other.
    (v) => (v === undefined || v === null ? undefined : v === "" ? Number.NaN : Number(v)),
    z
      .number({ invalid_type_error: `${name} must be a whole number` })
      .int(`${name} must be a whole number`)
      .min(min, `${name} must be at least ${min}`)
      .max(max, `${name} must be at most ${max}`)
      .optional(),
  );

export const UPDATED_SINCE_INVALID = "updatedSince must be a date and time (ISO 8601, e.g. 2026-01-31T09:00:00Z)";

/** `?updatedSince=`: the records changed at or after this time, in the order of changes (docs/decisions/0052). */
const updatedSince = z
  .string({ invalid_type_error: UPDATED_SINCE_INVALID })
  .datetime({ offset: true, message: UPDATED_SINCE_INVALID })
  .transform((text) => new Date(text))
  .optional()
  .describe(
    "A sync: only the records changed (created or updated) at or after this time, oldest change first (`updatedAt`, then `id`); page on with the answer's `X-Next-Cursor`, and keep the newest `updatedAt` seen for the next sync. A full sync starts from 1970-01-01T00:00:00Z.",
  );

/** `?cursor=`: a list's opaque position, decoded before any query; `accept` narrows the kinds a list takes. */
export function cursorParam(accept: (cursor: ListCursor) => boolean = () => true) {
  return z
    .string({ invalid_type_error: CURSOR_INVALID })
    .optional()
    .transform((text, ctx): ListCursor | undefined => {
      // Blank, like an empty `q`, asks for the first page.
      if (text === undefined || text === "") return undefined;
      const cursor = decodeCursor(text);
      if (!cursor || !accept(cursor)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: CURSOR_INVALID });
      return cursor ?? undefined;
    });
}

/**
 * `GET /api/<list>?q=&limit=&offset=`: without parameters the whole list (what the spec's client
 * expects). `q` is cut to 100 characters rather than refused: a search box never errors.
 * `updatedSince` turns the list into a sync: oldest change first, its cursor going on to later changes.
 */
export const listQuerySchema = z.object({
  q: z
    .string()
    .optional()
    .transform((v) => v?.trim().slice(0, SEARCH_MAX_LENGTH) || undefined),
  limit: whole("limit", 1, LIST_MAX_LIMIT),
  offset: whole("offset", 0, Number.MAX_SAFE_INTEGER),
  /** Keyset paging (docs/decisions/0033): the records past this position; offset stays for older clients. */
  cursor: cursorParam(),
  updatedSince,
});

export type ListQuery = z.infer<typeof listQuerySchema>;

/**
 * `GET /api/<list>?updatedSince=` of a small list answered whole (webhook endpoints, API tokens, a
 * vendor's pricing, users): no paging, the same sync (docs/decisions/0056).
 */
export const wholeListQuerySchema = z.object({ updatedSince });
export type WholeListQuery = z.infer<typeof wholeListQuerySchema>;
export const wholeListQueryInput = (url: URL) => ({ updatedSince: url.searchParams.get("updatedSince") ?? undefined });

/** Reads the list parameters of a request URL (first value of each). */
export function listQueryInput(url: URL) {
  const get = (k: string) => url.searchParams.get(k) ?? undefined;
  return { q: get("q"), limit: get("limit"), offset: get("offset"), cursor: get("cursor"), updatedSince: get("updatedSince") };
}

/** The words of a search (at most 8), lower-cased; each must occur in one of a list's searched fields. */
export function searchWords(q: string | undefined) {
  return (q ?? "").trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
}
