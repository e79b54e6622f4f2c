import type { Page } from "@playwright/test";
import { Assessment } from "../app/models/assessment.server";
import { client, tokenFor } from "../tests/accounts";
import type { RunningApp } from "../tests/app-server";
import { expect, test } from "./fixtures";

// Issue 40 item 5 (docs/decisions/0053), on a phone (projects `phone` and `phone-no-js`: 360 px):
// the customer approves the original, the dealer revises it, and the revised estimate's page says
// it is a revision (S01, the original's number kept), what changed since the approved version (the
// line old → new), the approved total, the new one and the difference; then the customer approves it.

async function expectPhoneLayout(page: Page) {
  expect(page.viewportSize()?.width).toBe(360);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await page.locator("script").count()).toBe(0);
}

async function approve(page: Page) {
  await page.getByLabel("Your full name (your signature)").fill("Jane Doe");
  await page.getByLabel(/I accept this estimate/).check();
  await page.getByRole("button", { name: "Approve estimate" }).click();
  await expect(page.getByTestId("decision-banner")).toContainText("signed as Jane Doe");
}

test("a revised estimate shows the customer what changed since the version they approved", async ({ page, createUser }) => {
  const user = await createUser("dealer");
  const api = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(user.id) });
  const contact = await api.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com" });
  const estimate = await Assessment.create({
    ownerId: user.id,
    title: "Silver Camry door",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    contactId: contact.json.id,
    mediaUrls: [],
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 1666.08,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 }],
    damageCategories: ["dent"],
    lineItems: [{ damageType: "dent", severity: "moderate", location: "left", priced: true, totalCents: 166608 }],
  });
  const id = String(estimate._id);
  const number = id.slice(-8).toUpperCase();
  const first = await api.post(`/api/assessments/${id}/links`);
  expect(first.status).toBe(201);
  await page.goto(new URL(first.json.url as string).pathname);
  await expect(page.getByTestId("version-name")).toHaveText(`Estimate No. ${number}`);
  await expect(page.getByTestId("supplement-changes")).toHaveCount(0);
  await approve(page);

  // The dealer finds hidden damage: the door dent now costs $1,772.08.
  const revised = await api.put(`/api/assessments/${id}/estimate`, {
    reason: "Hidden damage behind the door",
    damages: [{ line: 0, damageType: "dent", location: "left", severity: "moderate", amount: 1772.08 }],
  });
  expect(revised.status, revised.text).toBe(201);
  const second = await api.post(`/api/assessments/${revised.json.id as string}/links`);
  expect(second.status).toBe(201);
  await page.goto(new URL(second.json.url as string).pathname);

  await expect(page.getByTestId("version-name")).toHaveText(`Revised estimate S01 No. ${number}-S01`);
  const changes = page.getByTestId("supplement-changes");
  await expect(changes.getByRole("heading", { level: 2 })).toHaveText(`What changed since the estimate you approved (Original, No. ${number})`);
  await expect(changes.getByTestId("lines-changed")).toContainText("$1,666.08 → $1,772.08");
  await expect(changes.getByTestId("previous-total")).toHaveText("$1,666.08");
  await expect(changes.getByTestId("new-total")).toHaveText("$1,772.08");
  await expect(changes.getByTestId("total-difference")).toHaveText("+$106.00");
  await expect(page.getByTestId("pdf-link")).toContainText(`No. ${number}-S01`);
  await expectPhoneLayout(page);
  await page.screenshot({ path: test.info().outputPath("revised.png"), fullPage: true });

  await approve(page);
  await expect(page.getByTestId("supplement-changes")).toBeVisible();
  await expectPhoneLayout(page);
});
