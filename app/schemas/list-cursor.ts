// Keyset paging (docs/decisions/0033): a cursor names the record a page stops at, by the list's
// order (createdAt, then _id, newest first), and the way to go from it: older (the next page) or
// newer (back). A sync reads the other order (docs/decisions/0052): updatedAt, then _id, oldest
// change first, and its cursor goes on to the later changes ("changed"). Opaque to clients
// (base64url), validated before any query, and only a position: every list query keeps its owner
// filter, so a cursor from another account reaches nothing of it.

export type CursorDirection = "older" | "newer" | "changed";
export interface ListCursor {
  direction: CursorDirection;
  /** The record's createdAt (older, newer) or updatedAt (changed). */
  at: Date;
  id: string;
}

export const CURSOR_INVALID = "cursor is not a cursor of this list (take it from a list answer's Link header or an Older/Newer link)";

const PATTERN = /^([onu])\.(\d{1,15})\.([a-f0-9]{24})$/;
const LETTER = { older: "o", newer: "n", changed: "u" } as const satisfies Record<CursorDirection, string>;
const directionOf = (letter: string): CursorDirection => (letter === "o" ? "older" : letter === "n" ? "newer" : "changed");

export function encodeCursor({ direction, at, id }: ListCursor) {
  const text = `${LETTER[direction]}.${at.getTime()}.${id}`;
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
  const at = new Date(Number(match[2]));
  if (Number.isNaN(at.getTime())) return null;
  return { direction: directionOf(match[1]), at, id: match[3] };
}

/** The cursors of a page's first and last records: "newer" from the first, "older" from the last. */
export function pageCursors(records: readonly { _id: unknown; createdAt: Date }[]) {
  const first = records[0];
  const last = records[records.length - 1];
  return {
    newer: first ? encodeCursor({ direction: "newer", at: new Date(first.createdAt), id: String(first._id) }) : null,
    older: last ? encodeCursor({ direction: "older", at: new Date(last.createdAt), id: String(last._id) }) : null,
  };
}

type Keyed = { _id: unknown; createdAt: Date; updatedAt?: Date };

/** A sync's read: in the order of changes, from `updatedSince` or a "changed" cursor. */
export const isSyncRead = (cursor: ListCursor | undefined, since: Date | undefined) => since !== undefined || cursor?.direction === "changed";

/**
 * A page read with one record more than `limit` (to know whether more follow) in the cursor's way,
 * in list order: the page, and the cursor of the next one that way when more follow (a newer read
 * keeps the records nearest its cursor, the end of the list). Without a limit, all of them and no next.
 * A sync's page goes on from its last record's change.
 */
export function pageAndNext<T extends Keyed>(records: T[], limit: number | undefined, cursor?: ListCursor, since?: Date) {
  if (limit === undefined || records.length <= limit) return { page: records, next: null };
  if (isSyncRead(cursor, since)) {
    const page = records.slice(0, limit);
    const last = page[page.length - 1];
    if (!last.updatedAt) throw new Error("A sync's page was read without updatedAt");
    return { page, next: encodeCursor({ direction: "changed", at: new Date(last.updatedAt), id: String(last._id) }) };
  }
  if (cursor?.direction === "newer") {
    const page = records.slice(records.length - limit);
    return { page, next: pageCursors(page).newer };
  }
  const page = records.slice(0, limit);
  return { page, next: pageCursors(page).older };
}

/**
 * An API list's total (`X-Total-Count`): how many records its filters match, `updatedSince` included
 * and the cursor not; a list read whole is its own count, anything paged asks the database.
 */
export async function listTotal(query: { limit?: number; offset?: number; cursor?: ListCursor }, read: readonly unknown[], count: () => Promise<number>) {
  return query.limit === undefined && !query.offset && !query.cursor ? read.length : count();
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
  if (edge) return cursor || offset > 0 ? { direction, at: new Date(edge.createdAt), id: String(edge._id) } : null;
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
