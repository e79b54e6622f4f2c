import { Assessment } from "../app/models/assessment.server";
import { CustomerDecision } from "../app/models/customer-decision.server";
import { client, tokenFor } from "../tests/accounts";
import type { RunningApp } from "../tests/app-server";
import { APPROVAL_SHEET } from "../tests/estimate-lines";
import { uploadMedia } from "../tests/uploads";
import { expect, signInPage, test } from "./fixtures";

// Approval line by line (issue 40 item 6) on a 360 px phone (projects `phone` and `phone-no-js`):
// the customer sees required and optional lines with the photo and damage number beside each,
// ticks an optional line, asks the server for the total, signs and approves; the page then shows
// the approved total and each line's decision. The page has no script: both projects walk plain forms.

const SHEET = { ...APPROVAL_SHEET, taxRates: { parts: 0, labour: 0, materials: 0 } };
// No tax: body $120; blend $97.50 + paint materials $57; coating $199.99; all $474.49.

test("the customer approves the required work and one optional line on a phone, with each line's photo beside it", async ({ page, createUser }) => {
  const user = await createUser("dealer");
  const api = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(user.id) });
  const mediaUrl = await uploadMedia(api);
  const contact = await api.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane.lines@example.com" });
  const estimate = await Assessment.create({
    ownerId: user.id,
    title: "Silver Camry options",
    contactId: contact.json.id,
    mediaUrls: [mediaUrl],
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 474.49,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8, mediaUrl }],
    damageCategories: ["dent"],
    lineItems: [],
    estimateSheet: SHEET,
  });
  const link = await api.post(`/api/assessments/${String(estimate._id)}/links`);
  expect(link.status).toBe(201);
  await page.goto(new URL(link.json.url as string).pathname);

  await expect(page.getByTestId("optional-tag")).toHaveCount(2);
  // The dent's photo and number beside its lines (table and choices), loaded through the link.
  await expect(page.getByTestId("public-lines").getByTestId("line-evidence").first()).toContainText("Damage 1 · Photo 1");
  await expect.poll(() => page.getByTestId("line-evidence").locator("img").first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByTestId("approved-total")).toHaveText("Total for what you approve: $120.00");

  await page.getByLabel(/Ceramic coating/).check();
  await page.getByRole("button", { name: "Update the total" }).click();
  await expect(page.getByTestId("approved-total")).toHaveText("Total for what you approve: $319.99");
  await expect(page.getByLabel(/Ceramic coating/)).toBeChecked();
  expect(await CustomerDecision.countDocuments({ assessmentId: estimate._id })).toBe(0);

  await page.getByLabel("Your full name (your signature)").fill("Jane Doe");
  await page.getByLabel(/I accept the required work/).check();
  await page.getByRole("button", { name: "Approve estimate" }).click();

  await expect(page.getByTestId("decision-banner")).toContainText("signed as Jane Doe");
  await expect(page.getByTestId("decision-approved-total")).toContainText("$319.99");
  await expect(page.getByTestId("decision-line")).toHaveCount(3);
  await expect(page.locator('[data-testid="decision-line"][data-decision="declined"]')).toContainText("Door blend");
  expect(page.viewportSize()?.width).toBe(360);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await page.locator("script").count()).toBe(0);
  await page.screenshot({ path: test.info().outputPath("approved-lines.png"), fullPage: true });
  const stored = await CustomerDecision.findOne({ assessmentId: estimate._id }).lean();
  expect(stored?.approvedTotalCents).toBe(31999);

  // The dealer, on the same phone: the card says what was approved beside the estimate's own total,
  // and the dashboard's Total Revenue counts the approved $319.99 (not $474.49).
  await signInPage(page, user.username, user.password);
  await page.goto("/estimates");
  const card = page.getByTestId("estimate-card").filter({ hasText: "Silver Camry options" });
  await expect(card.getByTestId("estimate-cost")).toHaveText("$474.49");
  await expect(card.getByTestId("decision-badge")).toHaveText("Approved $319.99");
  await page.goto("/");
  await expect(page.getByTestId("customer-decision").first().getByTestId("decision-badge")).toHaveText("Approved $319.99");
  await expect(page.getByRole("group", { name: "Total Revenue" }).getByTestId("stat-value")).toHaveText("$320");
  await page.screenshot({ path: test.info().outputPath("dealer-approved-lines.png"), fullPage: true });
});
