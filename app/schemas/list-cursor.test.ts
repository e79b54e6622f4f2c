import { describe, expect, it } from "vitest";
import { backCursor, decodeCursor, encodeCursor, lastPageAtMost, pageAndNext, type ListCursor } from "./list-cursor";

// Records in list order (newest first), as a list query answers them.
const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 9, minute));
const record = (n: number) => ({ _id: n.toString(16).padStart(24, "0"), createdAt: at(n) });
const newest = (...ns: number[]) => ns.map(record);
const cursorAt = (direction: ListCursor["direction"], n: number): ListCursor => ({ direction, at: at(n), id: record(n)._id });

describe("pageAndNext", () => {
  it("an older read keeps the records nearest its cursor, and the next cursor goes on from the last", () => {
    const { page, next } = pageAndNext(newest(9, 8, 7), 2, cursorAt("older", 10));
    expect(page.map((r) => r._id)).toEqual([record(9)._id, record(8)._id]);
    expect(decodeCursor(next)).toEqual(cursorAt("older", 8));
  });

  it("a newer read (reversed into list order) keeps the records nearest its cursor too, and goes on newer from the first", () => {
    const { page, next } = pageAndNext(newest(7, 6, 5), 2, cursorAt("newer", 4));
    expect(page.map((r) => r._id)).toEqual([record(6)._id, record(5)._id]);
    expect(decodeCursor(next)).toEqual(cursorAt("newer", 6));
  });
});

describe("backCursor", () => {
  it("looks newer from the first record of a first-read or older page, older from the last of a newer page; a first page has none", () => {
    expect(backCursor(newest(9, 8), undefined)).toBeNull();
    expect(backCursor(newest(9, 8), undefined, 24)).toEqual(cursorAt("newer", 9));
    expect(backCursor(newest(9, 8), cursorAt("older", 10))).toEqual(cursorAt("newer", 9));
    expect(backCursor(newest(9, 8), cursorAt("newer", 7))).toEqual(cursorAt("older", 8));
    expect(backCursor([], cursorAt("older", 3))).toEqual(cursorAt("newer", 3));
  });
});

it("an old bookmark's page past the end is the last page", () => {
  expect(lastPageAtMost(98 * 24, 30, 24)).toBe(24);
  expect(lastPageAtMost(24, 0, 24)).toBe(0);
  expect(encodeCursor(cursorAt("older", 1))).toMatch(/^[A-Za-z0-9_-]+$/);
});
