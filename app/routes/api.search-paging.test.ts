import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Types } from "mongoose";
import { Assessment } from "~/models/assessment.server";
import { Contact } from "~/models/contact.server";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { startTenancyApp } from "../../tests/signed-in-app";

// Issue 43 items 2 and 3: the searches answer from the words index, and lists page by cursor.
let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let aId: string;
let bId: string;

beforeAll(async () => {
  ({ app, aId, bId, dealerA, dealerB } = await startTenancyApp({ otherRole: "dealer" }));
});
afterAll(() => app?.stop());

const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 9, minute));

describe("search through the words index", () => {
  beforeAll(async () => {
    await Assessment.deleteMany({});
    await Contact.deleteMany({});
    await Assessment.create({ ownerId: aId, title: "Rayure sur la portière", vehicleMake: "Citroën", vehicleModel: "C4 Picasso", vin: "VF7UA9HD8CJ512345", mediaUrls: [], createdAt: at(1) });
    await Assessment.create({ ownerId: aId, title: "Hail on the roof", vehicleMake: "Subaru", vehicleModel: "Outback", vin: "4S4BSANC5K3212345", mediaUrls: [], createdAt: at(2) });
    await Assessment.create({ ownerId: bId, title: "Hail on the roof", vehicleMake: "Citroën", vehicleModel: "C4", vin: "VF7UA9HD8CJ599999", mediaUrls: [], createdAt: at(3) });
    // Written before the index existed (straight to the collection): found all the same.
    await Assessment.collection.insertOne({ _id: new Types.ObjectId(), ownerId: new Types.ObjectId(aId), title: "Old dent", vehicleMake: "Škoda", status: "uploaded", mediaUrls: [], createdAt: at(0), updatedAt: at(0) });
    await Contact.create({ ownerId: aId, firstName: "José", lastName: "Álvarez", email: "jose@alvarez.test", phone: "+1 (555) 123-4567", companyName: "Álvarez & Hijos" });
    await Contact.create({ ownerId: bId, firstName: "Jose", lastName: "Alvarez", email: "jose@other.test", phone: "555 123 4567" });
  });
  const titles = async (who: Client, q: string) => ((await who.get(`/api/assessments?q=${encodeURIComponent(q)}`)).json as { title: string }[]).map((a) => a.title);
  const names = async (who: Client, q: string) => ((await who.get(`/api/contacts?q=${encodeURIComponent(q)}`)).json as { lastName: string; ownerId: string }[]);

  it("finds assessments by any prefix of a word or of the VIN, whatever the case and accents, all words at once", async () => {
    expect(await titles(dealerA, "citroen")).toEqual(["Rayure sur la portière"]);
    expect(await titles(dealerA, "PORTIERE")).toEqual(["Rayure sur la portière"]);
    expect(await titles(dealerA, "vf7ua9hd8")).toEqual(["Rayure sur la portière"]);
    expect(await titles(dealerA, "VF7UA9HD8CJ512345")).toEqual(["Rayure sur la portière"]);
    expect(await titles(dealerA, "hail subaru")).toEqual(["Hail on the roof"]);
    expect(await titles(dealerA, "hail citroen")).toEqual([]);
    expect(await titles(dealerA, "skoda")).toEqual(["Old dent"]);
    expect(await titles(dealerA, "ro")).toEqual(["Hail on the roof"]);
  });

  it("finds contacts by name, email, company and phone (also its digits together), accents aside", async () => {
    for (const q of ["jose", "ÁLVAREZ", "alvarez & hijos", "jose@alvarez", "555", "(555) 123", "5551234567", "15551234567"]) {
      const found = await names(dealerA, q);
      expect(found.map((c) => c.lastName), q).toEqual(["Álvarez"]);
    }
  });

  it("never shows another account's records, whatever the words", async () => {
    expect((await names(dealerB, "jose")).every((c) => c.ownerId === bId)).toBe(true);
    expect(await titles(dealerB, "vf7ua9hd8")).toEqual(["Hail on the roof"]);
    expect(await titles(dealerB, "portiere")).toEqual([]);
  });
});

describe("keyset paging of the API lists", () => {
  beforeAll(async () => {
    await Assessment.deleteMany({});
    await Contact.deleteMany({});
    // Two records share a creation time: the cursor tells them apart by id.
    for (let i = 0; i < 7; i++) await Assessment.create({ ownerId: aId, title: `Estimate ${i}`, mediaUrls: [], createdAt: at(i === 4 ? 3 : i) });
    for (let i = 0; i < 3; i++) await Assessment.create({ ownerId: bId, title: `Theirs ${i}`, mediaUrls: [], createdAt: at(i) });
  });

  const nextOf = (link: string | null) => /^<([^>]+)>; rel="next"$/.exec(link ?? "")?.[1] ?? null;

  it("answers the next page's cursor in Link; following it never repeats or skips a record created meanwhile", async () => {
    const seen: string[] = [];
    // Three a page: the two sharing a time stand on either side of the first page's end.
    let path: string | null = "/api/assessments?limit=3";
    let created = 0;
    while (path) {
      const res = await dealerA.get(path);
      expect(res.status).toBe(200);
      seen.push(...res.json.map((a: { title: string }) => a.title));
      path = nextOf(res.headers.get("link"));
      if (path) expect(path).not.toContain("offset");
      // Records created mid-paging are newer than every page: none shows, none is skipped or repeated.
      await Assessment.create({ ownerId: aId, title: `New ${created++}`, mediaUrls: [] });
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(["Estimate 0", "Estimate 1", "Estimate 2", "Estimate 3", "Estimate 4", "Estimate 5", "Estimate 6"]);
    // The same order as the whole list.
    const whole = (await dealerA.get("/api/assessments")).json.map((a: { title: string }) => a.title).filter((t: string) => t.startsWith("Estimate"));
    expect(seen).toEqual(whole);
    expect(seen.slice(2, 4)).toEqual(["Estimate 4", "Estimate 3"]);
  });

  it("a cursor is only a position: another account's cursor pages through the caller's own records", async () => {
    const first = await dealerA.get("/api/assessments?limit=3");
    const next = nextOf(first.headers.get("link"));
    expect(next).toBeTruthy();
    const theirs = await dealerB.get(next as string);
    expect(theirs.status).toBe(200);
    expect(theirs.json.every((a: { ownerId: string }) => a.ownerId === bId)).toBe(true);
    expect(theirs.json.map((a: { title: string }) => a.title)).toEqual(["Theirs 2", "Theirs 1", "Theirs 0"]);
  });

  it("refuses a cursor that is not one with a 400 naming it, and changes nothing", async () => {
    const count = await Assessment.countDocuments();
    for (const bad of ["nonsense", "bzEyMy5hYmM", "x".repeat(65), "%24ne", "o.1.6650c0ffee0123456789abcd"]) {
      for (const list of ["/api/assessments", "/api/contacts"]) {
        const res = await dealerA.get(`${list}?limit=2&cursor=${bad}`);
        expect(res.status, `${list} ${bad}`).toBe(400);
        expect(res.json.errors.cursor).toMatch(/^cursor is not a cursor of this list/);
      }
    }
    expect(await Assessment.countDocuments()).toBe(count);
  });

  it("takes a blank cursor for none: the first page, like a blank search", async () => {
    for (const list of ["/api/assessments", "/api/contacts"]) {
      const blank = await dealerA.get(`${list}?limit=2&cursor=`);
      expect(blank.status, list).toBe(200);
      expect(blank.json).toEqual((await dealerA.get(`${list}?limit=2`)).json);
    }
  });

  it("pages contacts the same way", async () => {
    for (let i = 0; i < 5; i++) await Contact.create({ ownerId: aId, firstName: `C${i}`, lastName: "Paged", email: `c${i}@paged.test` });
    const seen: string[] = [];
    let path: string | null = "/api/contacts?q=paged&limit=2";
    while (path) {
      const res = await dealerA.get(path);
      seen.push(...res.json.map((c: { firstName: string }) => c.firstName));
      path = nextOf(res.headers.get("link"));
      await Contact.create({ ownerId: aId, firstName: "Late", lastName: "Paged", email: "late@paged.test" });
    }
    expect(seen).toEqual(["C4", "C3", "C2", "C1", "C0"]);
  });
});
