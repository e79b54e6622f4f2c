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

/** The cursor a text names; null for anything else (then a 400, on the API and on a screen alike). */
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

type Keyed = { _id: unknown; createdAt: Date };

/**
 * A page read with one record more than `limit` (to know whether more follow) in the cursor's way,
 * in list order: the page, and the cursor of the next one that way when more follow (a newer read
 * keeps the records nearest its cursor, the end of the list). Without a limit, all of them and no next.
 */
export function pageAndNext<T extends Keyed>(records: T[], limit: number | undefined, cursor?: ListCursor) {
  if (limit === undefined || records.length <= limit) return { page: records, next: null };
  if (cursor?.direction === "newer") {
    const page = records.slice(records.length - limit);
    return { page, next: pageCursors(page).newer };
  }
  const page = records.slice(0, limit);
  return { page, next: pageCursors(page).older };
}

/**
 * The position just past a page the other way from the one it was read in (newer for a first or
 * older page, older for a newer page): a one-record read from it says whether the screen shows the
 * other link. An empty page past a cursor looks back from the cursor itself; a first page has none.
 */
export function backCursor(page: readonly Keyed[], cursor: ListCursor | undefined, offset = 0): ListCursor | null {
  const newerRead = cursor?.direction === "newer";
  const edge = newerRead ? page[page.length - 1] : page[0];
  const direction = newerRead ? "older" : "newer";
  if (edge) return cursor || offset > 0 ? { direction, createdAt: new Date(edge.createdAt), id: String(edge._id) } : null;
  return cursor ? { ...cursor, direction } : null;
}

/** A screen's "Older" and "Newer" cursors: the next one the way it was read, the other when `back` found a record there. */
export function screenCursors(page: readonly Keyed[], next: string | null, cursor: ListCursor | undefined, back: ListCursor | null, backFound: boolean) {
  const behind = back && backFound ? encodeCursor(back) : null;
  return cursor?.direction === "newer" ? { older: behind, newer: next } : { older: next, newer: behind };
}

/**
 * A list screen's "Older" and "Newer" cursors around a page read through its API list (`list`: the
 * page's records and the next cursor that way, from pageAndNext): the other side is asked with a
 * one-record read (`probe`) from backCursor's position. `offset` is an old bookmark's `?page=`.
 */
export async function screenCursorsOf(
  list: { records: readonly Keyed[]; next: string | null },
  cursor: ListCursor | undefined,
  offset: number,
  probe: (back: ListCursor) => Promise<readonly unknown[]>,
) {
  const back = backCursor(list.records, cursor, offset);
  const found = back ? (await probe(back)).length > 0 : false;
  return screenCursors(list.records, list.next, cursor, back, found);
}

/** An old bookmark's `?page=` as an offset, past the end the last page's (as the numbered pages did). */
export const lastPageAtMost = (offset: number, matched: number, pageSize: number) => Math.min(offset, Math.max(0, Math.ceil(matched / pageSize) - 1) * pageSize);
