// Keyset paging (docs/decisions/0033): a cursor names the record a page stops at, by the list's
// order (createdAt, then _id, newest first), and the way to go from it: older (the next page) or
// newer (back). Opaque to clients (base64url), validated before any query, and only a position:
// every list query keeps its owner filter, so a cursor from another account reaches nothing of it.

export type CursorDirection = "older" | "newer";
export interface ListCursor {
  direction: CursorDirection;
  createdAt: Date;
  id: string;
}

export const CURSOR_INVALID = "cursor is not a cursor of this list (take it from a list answer's Link header or an Older/Newer link)";

const PATTERN = /^([on])\.(\d{1,15})\.([a-f0-9]{24})$/;

export function encodeCursor({ direction, createdAt, id }: ListCursor) {
  const text = `${direction === "older" ? "o" : "n"}.${createdAt.getTime()}.${id}`;
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The cursor a text names; null for anything else (then a 400 on the API, the first page on a screen). */
export function decodeCursor(text: string | null | undefined): ListCursor | null {
  if (!text || text.length > 64 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let plain: string;
  try {
    plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const match = PATTERN.exec(plain);
  if (!match) return null;
  const createdAt = new Date(Number(match[2]));
  if (Number.isNaN(createdAt.getTime())) return null;
  return { direction: match[1] === "o" ? "older" : "newer", createdAt, id: match[3] };
}

/** The cursors of a page's first and last records: "newer" from the first, "older" from the last. */
export function pageCursors(records: readonly { _id: unknown; createdAt: Date }[]) {
  const first = records[0];
  const last = records[records.length - 1];
  return {
    newer: first ? encodeCursor({ direction: "newer", createdAt: new Date(first.createdAt), id: String(first._id) }) : null,
    older: last ? encodeCursor({ direction: "older", createdAt: new Date(last.createdAt), id: String(last._id) }) : null,
  };
}

/**
 * A page read with one record more than `limit` (to know whether more follow): the page, and the
 * cursor of the next when they do. Without a limit, all of them and no next.
 */
export function pageAndNext<T extends { _id: unknown; createdAt: Date }>(records: T[], limit: number | undefined) {
  if (limit === undefined || records.length <= limit) return { page: records, next: null };
  const page = records.slice(0, limit);
  return { page, next: pageCursors(page).older };
}
