import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { Contact } from "~/models/contact.server";
import { encodeCursor } from "~/schemas/list-cursor";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";

// Issue 43 item 3 (docs/decisions/0036): Estimates and Contacts page by cursor, "Older" / "Newer" as
// plain links in the server-rendered page (JavaScript off), keeping the search in them.
let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let aId: string;
let bId: string;

beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  const a = await createTestUser({ role: "dealer" });
  const b = await createTestUser({ role: "dealer" });
  ({ id: aId } = a);
  ({ id: bId } = b);
  dealerA = client(app, { cookie: await signIn(app, a.username, a.password) });
  dealerB = client(app, { cookie: await signIn(app, b.username, b.password) });
});
afterAll(() => app?.stop());

const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 9, minute));
const decode = (href: string) => href.replace(/&amp;/g, "&");
/** The href of the page's link with this rel ("next": Older, "prev": Newer), or null. */
const linkOf = (html: string, rel: "next" | "prev") => {
  const tag = [...html.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]).find((t) => t.includes(`rel="${rel}"`));
  const href = tag && /href="([^"]+)"/.exec(tag)?.[1];
  return href ? decode(href) : null;
};
/** The records a page shows (each name once, in the order of the page). */
const namesOn = (html: string, pattern: RegExp) => [...new Set([...html.matchAll(pattern)].map((m) => m[0]))];

/**
 * Walks Older from `first` to the end, then Newer back to the top, creating a record after each
 * page; answers the names each walk saw, and what was created after the walk's last page.
 */
async function walk(who: Client, first: string, pattern: RegExp, create: (name: string) => Promise<unknown>) {
  const older: string[] = [];
  const newerPages: string[][] = [];
  let created = 0;
  let path: string | null = first;
  let last = first;
  while (path) {
    const res = await who.get(path);
    expect(res.status, path).toBe(200);
    older.push(...namesOn(res.text, pattern));
    last = path;
    path = linkOf(res.text, "next");
    if (path) expect(path).toContain("q=paged");
    await create(`Paged late ${String(created++).padStart(2, "0")}`);
  }
  // From the last page back: it and every newer page, read newest last.
  const lastPage = (await who.get(last)).text;
  newerPages.push(namesOn(lastPage, pattern));
  path = linkOf(lastPage, "prev");
  expect(path, "a last page links to the newer one").toBeTruthy();
  let afterLast: string[] = [];
  while (path) {
    const res = await who.get(path);
    expect(res.status, path).toBe(200);
    expect(path).not.toContain("page=");
    newerPages.push(namesOn(res.text, pattern));
    path = linkOf(res.text, "prev");
    const name = `Paged late ${String(created++).padStart(2, "0")}`;
    await create(name);
    afterLast = path ? [] : [name];
  }
  return { older, newer: newerPages.reverse().flat(), afterLast };
}

describe("the Estimates screen pages by cursor", () => {
  beforeAll(async () => {
    await Assessment.deleteMany({});
    // 60 of A's (two sharing a creation time), searched for; others that the search leaves out; B's.
    for (let i = 0; i < 60; i++) await Assessment.create({ ownerId: aId, title: `Paged estimate ${String(i).padStart(2, "0")}`, mediaUrls: [], createdAt: at(i === 30 ? 29 : i) });
    for (let i = 0; i < 5; i++) await Assessment.create({ ownerId: aId, title: `Other estimate ${i}`, mediaUrls: [], createdAt: at(i) });
    for (let i = 0; i < 3; i++) await Assessment.create({ ownerId: bId, title: `Theirs paged ${i}`, mediaUrls: [], createdAt: at(i) });
  });
  const PATTERN = /Paged (?:estimate|late) \d\d|Other estimate \d|Theirs paged \d/g;

  it("walks Older then Newer with plain links that keep the search, never repeating or skipping a record created meanwhile", async () => {
    const created = (title: string) => Assessment.create({ ownerId: aId, title, mediaUrls: [] });
    const first = await dealerA.get("/estimates?q=paged");
    expect(first.text).not.toMatch(/href="[^"]*page=/);
    const { older, newer, afterLast } = await walk(dealerA, "/estimates?q=paged", PATTERN, created);
    const originals = Array.from({ length: 60 }, (_, i) => `Paged estimate ${String(i).padStart(2, "0")}`).reverse();
    expect(older).toEqual(originals);
    // Back to the top: every record between, the ones created meanwhile too, once each, newest first.
    const all = ((await dealerA.get("/api/assessments?q=paged")).json as { title: string }[]).map((a) => a.title);
    expect(newer).toEqual(all.filter((t) => !afterLast.includes(t)));
    expect(new Set(newer).size).toBe(newer.length);
  });

  it("keeps accepting an old bookmark's ?page=", async () => {
    const res = await dealerA.get("/estimates?q=estimate&page=2");
    expect(res.status).toBe(200);
    expect(namesOn(res.text, PATTERN)).toHaveLength(24);
    expect(linkOf(res.text, "prev")).toContain("cursor=");
  });

  it("a cursor made from another account's record shows only the caller's own records; one that is not a cursor is a 400 page", async () => {
    const theirs = await Assessment.findOne({ ownerId: bId, title: "Theirs paged 2" }).lean();
    const cursor = encodeCursor({ direction: "older", createdAt: theirs!.createdAt, id: String(theirs!._id) });
    const res = await dealerA.get(`/estimates?cursor=${cursor}`);
    expect(res.status).toBe(200);
    const names = namesOn(res.text, PATTERN);
    expect(names).toEqual(["Other estimate 2", "Paged estimate 02", "Other estimate 1", "Paged estimate 01", "Other estimate 0", "Paged estimate 00"]);
    for (const screen of ["/estimates", "/contacts"]) {
      for (const bad of ["nonsense", "bzEyMy5hYmM", "%24ne", "o.1.6650c0ffee0123456789abcd"]) {
        const page = await dealerB.get(`${screen}?cursor=${bad}`);
        expect(page.status, `${screen} ${bad}`).toBe(400);
        expect(page.text).toContain("cursor is not a cursor of this list");
      }
      // Blank is no cursor (as on the API): the first page.
      expect((await dealerB.get(`${screen}?cursor=`)).status, screen).toBe(200);
    }
  });
});

describe("the Contacts screen pages by cursor", () => {
  beforeAll(async () => {
    await Contact.deleteMany({});
    for (let i = 0; i < 50; i++) await Contact.create({ ownerId: aId, firstName: "Paged", lastName: `Contact${String(i).padStart(2, "0")}`, email: `c${i}@paged.test` });
    await Contact.create({ ownerId: aId, firstName: "Left", lastName: "LeftOut", email: "out@other.test" });
    await Contact.create({ ownerId: bId, firstName: "Paged", lastName: "TheirsPaged", email: "theirs@paged.test" });
  });
  // Last names only: a card writes the first and last name as two texts.
  const PATTERN = /Contact\d\d|Late\d\d|LeftOut|TheirsPaged/g;

  it("walks Older then Newer, never repeating or skipping a contact created meanwhile", async () => {
    let n = 0;
    const created = (name: string) => Contact.create({ ownerId: aId, firstName: "Paged", lastName: name.replace("Paged late ", "Late"), email: `late${n++}@paged.test` });
    const { older, newer, afterLast } = await walk(dealerA, "/contacts?q=paged", PATTERN, created);
    expect(older).toEqual(Array.from({ length: 50 }, (_, i) => `Contact${String(i).padStart(2, "0")}`).reverse());
    const all = ((await dealerA.get("/api/contacts?q=paged")).json as { lastName: string }[]).map((c) => c.lastName);
    expect(newer).toEqual(all.filter((t) => !afterLast.map((l) => l.replace("Paged late ", "Late")).includes(t)));
    expect(new Set(newer).size).toBe(newer.length);
  });
});
