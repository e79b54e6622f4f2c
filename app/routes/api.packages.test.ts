import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServicePackage } from "~/models/package.server";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { startTenancyApp } from "../../tests/signed-in-app";

let app: RunningApp;
type Client = ReturnType<typeof client>;
let dealerA: Client;
let dealerB: Client;
let admin: Client;
let aId: string;
let bId: string;

const premium = { name: "Premium Detail", price: 199.99 };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

beforeAll(async () => {
  ({ app, aId, bId, dealerA, dealerB, admin } = await startTenancyApp());
});
afterAll(() => app?.stop());

async function create(c: Client, body: Record<string, unknown>) {
  const res = await c.post("/api/packages", body);
  expect(res.status).toBe(201);
  return res.json;
}

describe("authentication", () => {
  it("answers 401 Unauthorized to anonymous callers on every call", async () => {
    const anon = client(app);
    const id = "0123456789abcdef01234567";
    for (const res of [
      await anon.get("/api/packages"),
      await anon.post("/api/packages", premium),
      await anon.put(`/api/packages/${id}`, premium),
      await anon.del(`/api/packages/${id}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ message: "Unauthorized" });
    }
  });
});

describe("POST /api/packages", () => {
  it("creates a package owned by the caller and answers 201 with it", async () => {
    const res = await dealerA.post("/api/packages", {
      name: " Premium Detail ",
      description: "Everything",
      price: 199.99,
      isActive: false,
      features: [" Hand wash ", "", "Clay bar", "  "],
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      ownerId: aId,
      name: "Premium Detail",
      description: "Everything",
      price: 199.99,
      features: ["Hand wash", "Clay bar"],
      isActive: false,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it("defaults: no description (null), no features, active", async () => {
    const pkg = await create(dealerA, { name: "Basic", price: 0 });
    expect(pkg).toMatchObject({ description: null, features: [], isActive: true, price: 0 });
  });

  it("ignores unknown fields and never takes ownerId from the body", async () => {
    const pkg = await create(dealerA, { ...premium, ownerId: bId, _id: "0123456789abcdef01234567", extra: 1 });
    expect(pkg.ownerId).toBe(aId);
    expect(pkg.extra).toBeUndefined();
    expect(String((await ServicePackage.findById(pkg.id).lean())?.ownerId)).toBe(aId);
  });

  it("answers 400 with the spec's messages", async () => {
    const res = await dealerA.post("/api/packages", { name: "", price: -1 });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      message: "Package name is required",
      errors: { name: "Package name is required", price: "Price must be a positive number" },
    });
    const missing = await dealerA.post("/api/packages", { name: "A" });
    expect(missing.json.errors).toEqual({ price: "Price must be a positive number" });
  });

  it("answers 400 for operator objects and wrong types (injection)", async () => {
    const before = await ServicePackage.countDocuments();
    for (const body of [
      { ...premium, name: { $gt: "" } },
      { ...premium, price: { $gt: 0 } },
      { ...premium, features: [{ $ne: "" }] },
      { ...premium, features: "one\ntwo" },
      { ...premium, isActive: "yes" },
    ]) {
      expect((await dealerA.post("/api/packages", body)).status).toBe(400);
    }
    expect(await ServicePackage.countDocuments()).toBe(before);
  });

  it("limits features to 50 of at most 200 characters", async () => {
    const many = await dealerA.post("/api/packages", { ...premium, features: Array.from({ length: 51 }, (_, i) => `F${i}`) });
    expect(many.status).toBe(400);
    expect(many.json.errors.features).toBe("At most 50 features");
    const long = await dealerA.post("/api/packages", { ...premium, features: ["x".repeat(201)] });
    expect(long.json.errors.features).toBe("Each feature must be at most 200 characters");
    const name = await dealerA.post("/api/packages", { ...premium, name: "n".repeat(101) });
    expect(name.json.errors.name).toBe("Package name must be at most 100 characters");
  });
});

describe("GET /api/packages", () => {
  beforeAll(async () => {
    await ServicePackage.deleteMany({});
    await create(dealerA, { name: "Basic Wash", description: "Exterior only", price: 25 });
    await create(dealerA, { name: "Pro Detail", description: "Interior and exterior", price: 150 });
    await create(dealerA, { name: "Fleet", description: "For BASIC fleets", price: 900, isActive: false });
    await create(dealerB, { name: "Basic Other", price: 10 });
  });

  it("lists only the caller's packages, newest first", async () => {
    const res = await dealerA.get("/api/packages");
    expect(res.status).toBe(200);
    expect(res.json.map((p: { name: string }) => p.name)).toEqual(["Fleet", "Pro Detail", "Basic Wash"]);
    expect((await dealerB.get("/api/packages")).json.map((p: { name: string }) => p.name)).toEqual(["Basic Other"]);
  });

  it("searches name and description case-insensitively, literally", async () => {
    const names = async (q: string) =>
      (await dealerA.get(`/api/packages?q=${encodeURIComponent(q)}`)).json.map((p: { name: string }) => p.name);
    expect(await names("basic")).toEqual(["Fleet", "Basic Wash"]);
    expect(await names("INTERIOR")).toEqual(["Pro Detail"]);
    expect(await names("pro.*")).toEqual([]);
    expect(await names("")).toHaveLength(3);
  });

  it("admins see every account's packages with the owner shown", async () => {
    const res = await admin.get("/api/packages");
    expect(res.json).toHaveLength(4);
    expect(res.json.find((p: { name: string }) => p.name === "Basic Other").owner.id).toBe(bId);
  });
});

describe("PUT /api/packages/{id}", () => {
  it("replaces the fields and answers the updated package", async () => {
    const pkg = await create(dealerA, { ...premium, description: "Old", features: ["A", "B"] });
    const res = await dealerA.put(`/api/packages/${pkg.id}`, {
      name: "Premium Plus",
      price: 249,
      features: ["C"],
      isActive: false,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: pkg.id,
      name: "Premium Plus",
      price: 249,
      features: ["C"],
      isActive: false,
      description: null,
      createdAt: pkg.createdAt,
    });
  });

  it("another account's package: 404 and its data unchanged", async () => {
    const theirs = await create(dealerB, { name: "Theirs", price: 5 });
    const res = await dealerA.put(`/api/packages/${theirs.id}`, { name: "Mine now", price: 0 });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: "Package not found" });
    const stored = await ServicePackage.findById(theirs.id).lean();
    expect(stored?.name).toBe("Theirs");
    expect(stored?.price).toBe(5);
  });

  it("a malformed id: 404", async () => {
    const res = await dealerA.put("/api/packages/xyz", premium);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: "Package not found" });
  });

  it("400 before anything changes", async () => {
    const pkg = await create(dealerA, premium);
    const res = await dealerA.put(`/api/packages/${pkg.id}`, { name: "X", price: "free" });
    expect(res.status).toBe(400);
    expect(res.json.errors.price).toBe("Price must be a positive number");
    expect((await ServicePackage.findById(pkg.id).lean())?.name).toBe("Premium Detail");
  });
});

describe("DELETE /api/packages/{id}", () => {
  it("deletes the caller's package and answers a message", async () => {
    const pkg = await create(dealerA, premium);
    const res = await dealerA.del(`/api/packages/${pkg.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: "Package deleted successfully" });
    expect((await dealerA.del(`/api/packages/${pkg.id}`)).status).toBe(404);
  });

  it("another account's package: 404 and it still exists", async () => {
    const theirs = await create(dealerB, premium);
    const res = await dealerA.del(`/api/packages/${theirs.id}`);
    expect(res.status).toBe(404);
    expect(await ServicePackage.findById(theirs.id)).not.toBeNull();
    expect((await dealerA.del("/api/packages/not-an-id")).status).toBe(404);
  });

  it("an admin may delete any account's package", async () => {
    const theirs = await create(dealerB, premium);
    expect((await admin.del(`/api/packages/${theirs.id}`)).status).toBe(200);
  });
});
