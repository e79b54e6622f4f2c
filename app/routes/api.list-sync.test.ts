import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { Contact } from "~/models/contact.server";
import { encodeCursor } from "~/schemas/list-cursor";
import { UPDATED_SINCE_INVALID } from "~/schemas/list-query";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 42 item 6 (docs/decisions/0052): every list answers its total and the next page's cursor,
// and `updatedSince` syncs in the order of changes, so a client never misses a change made mid-sync.
let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let admin: Client;
let aId: string;
let bId: string;

beforeAll(async () => {
  ({ app, aId, bId, dealerA, dealerB, admin } = await startTenancyApp({ otherRole: "dealer" }));
});
afterAll(() => app?.stop());

type SyncedContact = { id: string; firstName: string; updatedAt: string };
const EPOCH = "1970-01-01T00:00:00Z";

/** A client's sync loop: pages from `since` by X-Next-Cursor; `between` runs after each page (someone else at work). */
async function sync(who: Client, since: string, between: (page: number) => Promise<void> = async () => undefined) {
  const pages: SyncedContact[][] = [];
  const totals: number[] = [];
  let path: string | null = `/api/contacts?limit=2&updatedSince=${encodeURIComponent(since)}`;
  while (path) {
    const res = await who.get(path);
    expect(res.status, path).toBe(200);
    pages.push(res.json);
    totals.push(Number(res.headers.get("x-total-count")));
    const next = res.headers.get("x-next-cursor");
    path = next ? `/api/contacts?limit=2&updatedSince=${encodeURIComponent(since)}&cursor=${next}` : null;
    await between(pages.length);
  }
  return { pages, totals, records: pages.flat() };
}

describe("a client's sync of a list", () => {
  const ids: string[] = [];
  beforeAll(async () => {
    await Contact.deleteMany({});
    for (let i = 0; i < 5; i++) {
      const res = await dealerA.post("/api/contacts", { firstName: `Original ${i}`, lastName: "Synced", email: `o${i}@sync.test` });
      expect(res.status).toBe(201);
      ids.push(res.json.id);
    }
    await Contact.create({ ownerId: bId, firstName: "Theirs", lastName: "Synced", email: "theirs@sync.test" });
  });

  it("sees every record, and every change made while it pages: a record created mid-sync once, an edited one again with its edit", async () => {
    const { records, totals } = await sync(dealerA, EPOCH, async (page) => {
      if (page !== 1) return;
      // After the first page: someone adds a contact and edits one the client has already read.
      expect((await dealerA.post("/api/contacts", { firstName: "Created mid-sync", lastName: "Synced", email: "mid@sync.test" })).status).toBe(201);
      const edited = await dealerA.put(`/api/contacts/${ids[0]}`, { firstName: "Edited mid-sync", lastName: "Synced", email: "o0@sync.test" });
      expect(edited.status).toBe(200);
    });
    expect(totals[0]).toBe(5);
    // Oldest change first: the five in their order, then the two changes.
    expect(records.map((c) => c.firstName)).toEqual(["Original 0", "Original 1", "Original 2", "Original 3", "Original 4", "Created mid-sync", "Edited mid-sync"]);
    expect(records.filter((c) => c.firstName === "Created mid-sync")).toHaveLength(1);
    // The client keeps the last version of each id: every record once, with its latest values.
    const latest = new Map(records.map((c) => [c.id, c.firstName]));
    expect(latest.size).toBe(6);
    expect(latest.get(ids[0])).toBe("Edited mid-sync");
    // Changes are never out of order, so the newest updatedAt seen is where the next sync starts.
    const times = records.map((c) => Date.parse(c.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("the next sync from the newest change seen answers only what changed since (the edge record again, at most)", async () => {
    const first = await sync(dealerA, EPOCH);
    const mark = first.records[first.records.length - 1].updatedAt;
    const quiet = await sync(dealerA, mark);
    expect(quiet.records.map((c) => c.id)).toEqual([first.records[first.records.length - 1].id]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await dealerA.put(`/api/contacts/${ids[3]}`, { firstName: "Edited later", lastName: "Synced", email: "o3@sync.test" })).status).toBe(200);
    const later = await sync(dealerA, mark);
    expect(later.records.map((c) => c.firstName)).toEqual([first.records[first.records.length - 1].firstName, "Edited later"]);
    expect(later.totals[0]).toBe(2);
  });

  it("a sync's cursor is only a position: another account following it reads its own records", async () => {
    const page = await dealerA.get(`/api/contacts?limit=1&updatedSince=${EPOCH}`);
    const next = page.headers.get("x-next-cursor");
    expect(next).toBeTruthy();
    const theirs = await dealerB.get(`/api/contacts?limit=10&updatedSince=${EPOCH}&cursor=${next}`);
    expect(theirs.status).toBe(200);
    expect(theirs.json.every((c: { ownerId: string }) => c.ownerId === bId)).toBe(true);
    expect(theirs.json.some((c: { ownerId: string }) => c.ownerId === aId)).toBe(false);
  });
});

describe("every list answers its total and the next page's cursor, and syncs", () => {
  const lists = () => [
    { who: dealerA, path: "/api/assessments" },
    { who: dealerA, path: "/api/contacts" },
    { who: dealerA, path: "/api/packages" },
    { who: dealerA, path: "/api/email-templates" },
    { who: dealerA, path: "/api/email-logs" },
    { who: admin, path: "/api/admin/ai-training-data" },
  ];
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      await Assessment.create({ ownerId: aId, title: `Synced estimate ${i}`, mediaUrls: [] });
      expect((await dealerA.post("/api/packages", { name: `Synced package ${i}`, description: "Wash", price: 10 + i })).status).toBe(201);
      expect((await dealerA.post("/api/email-templates", { name: `Synced template ${i}`, subject: "Your estimate", htmlContent: "<p>Hello</p>" })).status).toBe(201);
    }
  });

  it("X-Total-Count is the filters' count on every page, X-Next-Cursor and Link go on while more follow", async () => {
    for (const { who, path } of lists()) {
      const whole = await who.get(path);
      expect(whole.status, path).toBe(200);
      expect(whole.headers.get("x-total-count"), path).toBe(String(whole.json.length));
      const paged = await who.get(`${path}?limit=1`);
      expect(paged.headers.get("x-total-count"), path).toBe(String(whole.json.length));
      if (whole.json.length > 1) {
        const next = paged.headers.get("x-next-cursor");
        expect(next, path).toBeTruthy();
        expect(paged.headers.get("link"), path).toContain(`cursor=${next}`);
      }
      const synced = await who.get(`${path}?updatedSince=${EPOCH}`);
      expect(synced.status, path).toBe(200);
      expect(synced.json.length, path).toBe(whole.json.length);
      const future = await who.get(`${path}?updatedSince=2999-01-01T00:00:00Z&limit=5`);
      expect(future.json, path).toEqual([]);
      expect(future.headers.get("x-total-count"), path).toBe("0");
    }
  });

  it("refuses an updatedSince that is not a time, and a screen's cursor in a sync, with a 400 naming the field", async () => {
    const screenCursor = encodeCursor({ direction: "older", at: new Date(), id: "6650c0ffee0123456789abcd" });
    for (const { who, path } of lists()) {
      for (const bad of ["yesterday", "2026-13-01T00:00:00Z", "1700000000", ""]) {
        const res = await who.get(`${path}?updatedSince=${encodeURIComponent(bad)}`);
        expect(res.status, `${path} ${bad}`).toBe(400);
        expect(res.json.errors.updatedSince, `${path} ${bad}`).toBe(UPDATED_SINCE_INVALID);
      }
      const mixed = await who.get(`${path}?updatedSince=${EPOCH}&limit=1&cursor=${screenCursor}`);
      expect(mixed.status, path).toBe(400);
      expect(mixed.json.errors.cursor, path).toMatch(/^cursor is not a cursor of this list/);
    }
  });

  it("a screen refuses a sync's cursor with its 400 page", async () => {
    const syncCursor = encodeCursor({ direction: "changed", at: new Date(), id: "6650c0ffee0123456789abcd" });
    const res = await dealerA.get(`/contacts?cursor=${syncCursor}`, { Accept: "text/html" });
    expect(res.status).toBe(400);
  });
});
