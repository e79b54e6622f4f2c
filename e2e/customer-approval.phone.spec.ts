import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import type { Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Assessment } from "../app/models/assessment.server";
import { client, tokenFor } from "../tests/accounts";
import type { RunningApp } from "../tests/app-server";
import { uploadMedia } from "../tests/uploads";
import { expect, test } from "./fixtures";

// The customer's side of an estimate (issue 27 item 5), on a phone (projects `phone` and
// `phone-no-js`: 360 px, touch): the link from the email opens the page of that version, the
// server's messages for a missing signature and terms, then Approve; on another estimate, Decline
// with a reason. The page carries no script, so both projects walk the same HTML forms.

async function estimateLink(createUser: (role: "dealer") => Promise<{ id: string }>, title: string, fields: Record<string, unknown> = {}) {
  const user = await createUser("dealer");
  const api = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(user.id) });
  const mediaUrl = await uploadMedia(api);
  const contact = await api.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com" });
  const estimate = await Assessment.create({
    ownerId: user.id,
    title,
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    contactId: contact.json.id,
    mediaUrls: [mediaUrl, mediaUrl],
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 425.5,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8, mediaUrl }],
    damageCategories: ["dent"],
    lineItems: [{ damageType: "dent", severity: "moderate", location: "left", priced: true, totalCents: 42550 }],
    ...fields,
  });
  const link = await api.post(`/api/assessments/${String(estimate._id)}/links`);
  expect(link.status).toBe(201);
  return { path: new URL(link.json.url as string).pathname, id: String(estimate._id), api };
}

async function expectPhoneLayout(page: Page) {
  expect(page.viewportSize()?.width).toBe(360);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  // No script on the page, whatever the browser allows.
  expect(await page.locator("script").count()).toBe(0);
}

test("the customer approves an estimate on a phone: the server's messages, then the signature recorded", async ({ page, createUser }) => {
  const { path, id } = await estimateLink(createUser, "Silver Camry door");
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "Silver Camry door" })).toBeVisible();
  await expect(page.getByTestId("headline-total")).toHaveText("$425.50");
  await expect(page.getByTestId("public-damages")).toContainText("Door dent");
  await expectPhoneLayout(page);
  // The first photo shows (served through the link).
  await expect.poll(() => page.locator("img").first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByTestId("pdf-link")).toHaveAttribute("href", `${path}/pdf`);

  await page.getByRole("button", { name: "Approve estimate" }).click();
  await expect(page.getByText("Please type your full name to sign")).toBeVisible();
  await page.getByLabel("Your full name (your signature)").fill("Jane Doe");
  await page.getByRole("button", { name: "Approve estimate" }).click();
  await expect(page.getByText("Please tick the box to accept the terms")).toBeVisible();
  // What was typed is still there.
  await expect(page.getByLabel("Your full name (your signature)")).toHaveValue("Jane Doe");
  await page.getByLabel(/I accept this estimate/).check();
  await page.getByRole("button", { name: "Approve estimate" }).click();

  await expect(page.getByTestId("decision-banner")).toContainText("signed as Jane Doe");
  await expect(page.getByTestId("decision-banner")).toContainText("has been told");
  await expect(page.getByRole("button", { name: "Approve estimate" })).toHaveCount(0);
  await expectPhoneLayout(page);
  await page.screenshot({ path: test.info().outputPath("approved.png"), fullPage: true });
  const stored = await Assessment.findById(id).lean<{ status: string; customerDecision?: { decision: string } }>();
  expect(stored).toMatchObject({ status: "sent", customerDecision: { decision: "approved" } });
});

test("the customer declines with a reason", async ({ page, createUser }) => {
  const { path, id } = await estimateLink(createUser, "Blue Civic bumper");
  await page.goto(path);
  await page.getByText("Decline", { exact: true }).click();
  await page.getByLabel("Reason (optional)").fill("I will get another quote");
  await page.getByRole("button", { name: "Decline estimate" }).click();
  await expect(page.getByTestId("decision-banner")).toContainText("Declined on");
  await expect(page.getByTestId("decision-banner")).toContainText("I will get another quote");
  await expectPhoneLayout(page);
  const stored = await Assessment.findById(id).lean<{ customerDecision?: { decision: string } }>();
  expect(stored?.customerDecision?.decision).toBe("declined");
});

test("the page shows the version's lines with their part and the totals block the API gives", async ({ page, createUser }) => {
  const estimateSheet = {
    lines: [
      { id: "d0-1", damage: 0, operation: "replace", description: "Door shell", labour: { category: "body", hours: 2.5, rateCents: 6000 }, part: { type: "oem", number: "67001-06900", description: "Front door shell", quantity: 1, unitPriceCents: 48999 }, amountCents: 0, note: "" },
      { id: "d0-2", damage: 0, operation: "refinish", description: "Door", labour: { category: "refinish", hours: 1.75, rateCents: 6500 }, part: null, amountCents: 0, note: "" },
    ],
    rates: { body: 6000, refinish: 6500, mechanical: 6000, frame: 6000 },
    materialsRateCents: 3800,
    taxRates: { parts: 8.875, labour: 4, materials: 8.875 },
    deductibleCents: null,
    language: null,
    mileage: null,
  };
  const { path, id, api } = await estimateLink(createUser, "Grey Camry door", { estimateSheet });
  const totals = (await api.get(`/api/assessments/${id}`)).json.sheet.totals as { taxTotalCents: number; totalCents: number };
  const money = (cents: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
  expect(totals.taxTotalCents).toBeGreaterThan(0);
  await page.goto(path);
  await expect(page.getByTestId("public-line")).toHaveCount(2);
  await expect(page.getByTestId("public-line-part")).toHaveText("Part: OEM 67001-06900 Front door shell × 1 @ $489.99");
  // Each tax once, on what it is charged on, as the PDF prints them: no "Tax" row repeating them.
  await expect(page.getByTestId("public-totals").getByRole("rowheader", { name: /^Tax on / })).toHaveCount(3);
  await expect(page.getByTestId("public-totals").getByRole("rowheader", { name: "Tax", exact: true })).toHaveCount(0);
  await expect(page.getByTestId("public-total")).toHaveText(money(totals.totalCents));
  await expectPhoneLayout(page);
});

test("a video's estimate shows the frames its analysis looked at, each numbered with its time", async ({ page, createUser }) => {
  const user = await createUser("dealer");
  const api = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(user.id) });
  // A 3-second test pattern made by the app's own ffmpeg: the analysis (the built-in matcher here) takes 6 frames.
  const file = join(mkdtempSync(join(tmpdir(), "e2e-video-")), "walkaround.mp4");
  execFileSync(ffmpegInstaller.path, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=3:size=640x360:rate=10", "-c:v", "mpeg4", "-y", file]);
  const videoUrl = await uploadMedia(api, { name: "walkaround.mp4", type: "video/mp4", bytes: readFileSync(file) });
  const created = await api.post("/api/assessments", { title: "Walk-around video", mediaUrls: [videoUrl] });
  expect(created.status).toBe(201);
  await api.post(`/api/assessments/${created.json.id}/analyze`);
  await expect.poll(async () => (await api.get(`/api/assessments/${created.json.id}`)).json.status, { timeout: 30_000 }).toBe("completed");
  const link = await api.post(`/api/assessments/${created.json.id}/links`);
  expect(link.status).toBe(201);

  await page.goto(new URL(link.json.url as string).pathname);
  await expect(page.getByRole("heading", { name: "Photos" })).toBeVisible();
  const frames = page.locator(".photos img");
  await expect(frames).toHaveCount(6);
  await expect(page.getByRole("img", { name: "Frame 1 of the video, at 0:00.3" })).toBeVisible();
  await expect(page.locator(".photos figcaption").nth(1)).toHaveText("Frame 2 · 0:00.8");
  // Every frame is an image the browser could decode: none is broken.
  for (let i = 0; i < 6; i++) {
    await frames.nth(i).scrollIntoViewIfNeeded();
    await expect.poll(() => frames.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
  await expectPhoneLayout(page);
  await page.screenshot({ path: test.info().outputPath("video-frames.png"), fullPage: true });
});
