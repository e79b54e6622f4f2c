import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TrainingItem } from "~/models/training-item.server";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { jpeg, mp4 } from "../../tests/media-files";
import { useTestDb } from "../../tests/test-db";

let app: RunningApp;
type Client = ReturnType<typeof client>;
let admin: Client;
let otherAdmin: Client;
let dealer: Client;
let vendor: Client;

beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  const [a, a2, d, v] = await Promise.all([
    createTestUser({ role: "admin" }),
    createTestUser({ role: "admin" }),
    createTestUser({ role: "dealer" }),
    createTestUser({ role: "vendor" }),
  ]);
  admin = client(app, { cookie: await signIn(app, a.username, a.password) });
  otherAdmin = client(app, { token: await tokenFor(a2.id) });
  dealer = client(app, { cookie: await signIn(app, d.username, d.password) });
  vendor = client(app, { token: await tokenFor(v.id) });
});
afterAll(() => app?.stop());

/** The spec's flow: POST /api/objects/upload → {uploadURL}, PUT the file there; the URL becomes imageUrl. */
async function upload(who: Client, data: Buffer, type = "image/jpeg", filename = "dent.jpg", purpose = "training") {
  const res = await who.post("/api/objects/upload", { filename, type, purpose });
  expect(res.status).toBe(200);
  const put = await fetch(res.json.uploadURL, { method: "PUT", body: new Uint8Array(data), headers: { "Content-Type": type } });
  expect(put.status).toBe(200);
  return res.json.uploadURL as string;
}

const item = (imageUrl: string, extra: Record<string, unknown> = {}) => ({
  imageUrl,
  damageType: "dent",
  severity: "moderate",
  description: "Door dent, paint intact",
  estimatedCost: 450,
  laborHours: 2.5,
  partsCost: 0,
  vehicleMake: "Toyota",
  location: "left",
  ...extra,
});

describe("roles", () => {
  it("answers 401 anonymous and 403 to dealers and vendors on every call", async () => {
    const id = "0123456789abcdef01234567";
    for (const who of [client(app), dealer, vendor]) {
      const expected = who === dealer || who === vendor ? 403 : 401;
      for (const res of [
        await who.get("/api/admin/ai-training-data"),
        await who.post("/api/admin/ai-training-data", item("/media/x")),
        await who.put(`/api/admin/ai-training-data/${id}`, { isVerified: true }),
        await who.del(`/api/admin/ai-training-data/${id}`),
      ]) {
        expect(res.status).toBe(expected);
      }
    }
    expect(await TrainingItem.countDocuments()).toBe(0);
  });
});

describe("create, list, filter, verify, edit, delete", () => {
  it("stores an item with the caller's uploaded image as an app media URL, pending", async () => {
    const uploadURL = await upload(admin, await jpeg({ width: 120, height: 80 }));
    const res = await admin.post("/api/admin/ai-training-data", item(uploadURL, { tags: [" door ", "", "dent"], ownerId: "x" }));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      imageUrl: expect.stringMatching(/^\/media\/[a-f0-9]{24}$/),
      damageType: "dent",
      severity: "moderate",
      estimatedCost: 450,
      laborHours: 2.5,
      paintWork: false,
      tags: ["door", "dent"],
      isVerified: false,
      vehicleModel: null,
    });
    expect(res.json.ownerId).toBeUndefined();
  });

  it("filters by damage type, severity and verified status in the query", async () => {
    const url = await upload(admin, await jpeg());
    await admin.post("/api/admin/ai-training-data", item(url, { damageType: "scratch", severity: "minor", isVerified: true }));
    const all = await admin.get("/api/admin/ai-training-data");
    expect(all.status).toBe(200);
    expect(all.json.length).toBeGreaterThanOrEqual(2);
    const scratches = await admin.get("/api/admin/ai-training-data?damageType=scratch");
    expect(scratches.json.every((i: { damageType: string }) => i.damageType === "scratch")).toBe(true);
    expect(scratches.json.length).toBe(1);
    const verified = await admin.get("/api/admin/ai-training-data?isVerified=true");
    expect(verified.json.map((i: { damageType: string }) => i.damageType)).toEqual(["scratch"]);
    const pending = await admin.get("/api/admin/ai-training-data?isVerified=false&severity=moderate");
    expect(pending.json.every((i: { isVerified: boolean; severity: string }) => !i.isVerified && i.severity === "moderate")).toBe(true);
    for (const bad of ["damageType=laser", "severity=catastrophic", "isVerified=maybe"]) {
      expect((await admin.get(`/api/admin/ai-training-data?${bad}`)).status).toBe(400);
    }
  });

  it("verifies with only {isVerified: true}, computing the image's features, and never goes back", async () => {
    const url = await upload(admin, await jpeg());
    const created = (await admin.post("/api/admin/ai-training-data", item(url))).json;
    const verified = await otherAdmin.put(`/api/admin/ai-training-data/${created.id}`, { isVerified: true });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ id: created.id, isVerified: true, verifiedAt: expect.any(String) });
    const stored = await TrainingItem.findById(created.id).lean();
    expect(stored?.features?.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(stored?.features?.colour).toHaveLength(64);

    // A full edit with isVerified false keeps it verified; another admin may keep the same image.
    const edited = await otherAdmin.put(`/api/admin/ai-training-data/${created.id}`, {
      ...item(created.imageUrl, { description: "Deeper than it looked", estimatedCost: 520 }),
      isVerified: false,
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ description: "Deeper than it looked", estimatedCost: 520, isVerified: true });
    expect(edited.json.location).toBe("left");

    const cleared = await admin.put(`/api/admin/ai-training-data/${created.id}`, item(created.imageUrl, { location: null, laborHours: null }));
    expect(cleared.json).toMatchObject({ location: null, laborHours: null });
  });

  it("deletes an item with its image; a second delete and a malformed id are 404", async () => {
    const url = await upload(admin, await jpeg());
    const created = (await admin.post("/api/admin/ai-training-data", item(url))).json;
    expect((await admin.get(created.imageUrl)).status).toBe(200);
    const res = await admin.del(`/api/admin/ai-training-data/${created.id}`);
    expect(res.status).toBe(200);
    expect((await admin.get(created.imageUrl)).status).toBe(404);
    // An image two items show stays until the last of them goes.
    const shared = await upload(admin, await jpeg());
    const first = (await admin.post("/api/admin/ai-training-data", item(shared))).json;
    const second = (await admin.post("/api/admin/ai-training-data", item(first.imageUrl))).json;
    await admin.del(`/api/admin/ai-training-data/${first.id}`);
    expect((await admin.get(second.imageUrl)).status).toBe(200);
    await admin.del(`/api/admin/ai-training-data/${second.id}`);
    expect((await admin.get(second.imageUrl)).status).toBe(404);
    expect(res.json).toEqual({ message: "Training data deleted successfully" });
    expect((await admin.del(`/api/admin/ai-training-data/${created.id}`)).status).toBe(404);
    expect((await admin.put("/api/admin/ai-training-data/nope", { isVerified: true })).status).toBe(404);
  });
});

describe("bad input changes nothing", () => {
  it("refuses missing fields, enum values outside the spec, negative and non-numbers, operators", async () => {
    const url = await upload(admin, await jpeg());
    const before = await TrainingItem.countDocuments();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...item(url), description: "  " }, "description", "Description is required"],
      [{ ...item(url), damageType: "laser_burn" }, "damageType", "Damage type must be one of: scratch, dent, crack, rust, broken_part, missing_part, paint_damage, glass_damage, bumper_damage, headlight_damage, taillight_damage, mirror_damage, wheel_damage, body_panel_damage"],
      [{ ...item(url), severity: undefined }, "severity", "Severity is required"],
      [{ ...item(url), estimatedCost: -1 }, "estimatedCost", "Estimated cost must be a positive number"],
      [{ ...item(url), estimatedCost: "450" }, "estimatedCost", "Estimated cost must be a positive number"],
      [{ ...item(url), laborHours: "NaN" }, "laborHours", "Labor hours must be a number"],
      [{ ...item(url), vehicleYear: 1850 }, "vehicleYear", "Vehicle year must be at least 1900"],
      [{ ...item(url), location: { $ne: null } }, "location", "Location must be one of: front, rear, left, right, top, bottom, center"],
      [{ ...item(url), imageUrl: { $gt: "" } }, "imageUrl", "Image must be text"],
      [{ ...item(url), imageUrl: undefined }, "imageUrl", "Image is required"],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.post("/api/admin/ai-training-data", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors[field]).toBe(message);
    }
    expect(await TrainingItem.countDocuments()).toBe(before);
  });

  it("refuses an outside URL, another admin's upload and a video as the image", async () => {
    const theirs = await upload(otherAdmin, await jpeg());
    // Training uploads take images only (415); a video from the dashboard is refused here.
    expect((await admin.post("/api/objects/upload", { filename: "a.mp4", type: "video/mp4", purpose: "training" })).status).toBe(415);
    const video = await upload(admin, mp4(), "video/mp4", "walkaround.mp4", "dashboard");
    const before = await TrainingItem.countDocuments();
    for (const imageUrl of ["https://example.com/dent.jpg", theirs, video, "/media/0123456789abcdef01234567"]) {
      const res = await admin.post("/api/admin/ai-training-data", item(imageUrl));
      expect(res.status, imageUrl).toBe(400);
      expect(res.json.errors.imageUrl).toBe("Image must be an image you uploaded");
    }
    expect(await TrainingItem.countDocuments()).toBe(before);
  });
});
