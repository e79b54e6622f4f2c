import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

// The review desk, with JavaScript on and off: search and filter, open an estimate, approve it,
// edit a line with a reason (the audit entry and the new total show), download the PDF.

const noJs = () => test.info().project.name === "no-js";
const stat = (page: Page, label: string) => page.getByRole("group", { name: label }).getByTestId("stat-value");
const dialog = (page: Page) => page.getByRole("dialog");
const cards = (page: Page) => page.getByTestId("estimate-card");

async function expectToast(page: Page, title: string, message: string) {
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message });
  await expect(toast).toBeVisible();
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
}

const line = (damageType: string, severity: string, location: string, totalCents: number) => ({
  damageType,
  severity,
  location,
  priced: true,
  baseCents: 10000,
  labour: { hours: 2, hoursFrom: "default", rateCents: 5000, cents: 10000 },
  partsCents: totalCents - 20000,
  modifiers: { make: 1, location: 1, seasonal: 1 },
  markupPercentage: 0,
  minimumChargeCents: 0,
  minimumApplied: false,
  ruleCents: totalCents,
  learning: { factor: 1, records: 0, cents: 0 },
  totalCents,
});

/** Three estimates of the dealer straight into the database: completed (priced), sent, uploaded. */
async function seed(ownerId: string, vendorId: string) {
  const owner = new mongoose.Types.ObjectId(ownerId);
  const now = new Date();
  const base = { ownerId: owner, mediaUrls: [], photoHashes: [], photoBands: [], photoWarnings: [], audit: [], createdAt: now, updatedAt: now };
  await mongoose.connection.collection("assessments").insertMany([
    {
      ...base,
      title: "Silver Camry",
      vehicleYear: 2019,
      vehicleMake: "Toyota",
      vehicleModel: "Camry",
      vin: "1HGCM82633A004352",
      vendorId: new mongoose.Types.ObjectId(vendorId),
      status: "completed",
      severity: "moderate",
      estimatedCost: 425.5,
      aiEstimatedCost: 425.5,
      damages: [
        { damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 },
        { damageType: "scratch", location: "front", severity: "minor", description: "Bumper scratch", confidence: 0.7 },
      ],
      damageCategories: ["dent", "scratch"],
      lineItems: [line("dent", "moderate", "left", 30000), line("scratch", "minor", "front", 12550)],
      aiAnalysis: { confidence: 0.75, description: "A dent and a scratch", provider: "embedded" },
      createdAt: new Date(now.getTime() - 1000),
    },
    { ...base, title: "Old Civic", vehicleMake: "Honda", vehicleModel: "Civic", status: "sent", estimatedCost: 200, damages: [], lineItems: [], damageCategories: ["dent", "rust", "crack", "scratch"] },
    { ...base, title: "Kia bumper", vehicleMake: "Kia", status: "uploaded", damages: [], lineItems: [], damageCategories: [], createdAt: new Date(now.getTime() - 2000) },
  ]);
}

test("search and filter, open an estimate, approve it, edit a line with a reason, download the PDF", async ({ page, loginAs, createUser }) => {
  test.setTimeout(60_000);
  const vendor = await createUser("vendor");
  const dealer = await loginAs("dealer");
  await seed(dealer.id, vendor.id);

  await page.goto("/estimates");
  await expect(page.getByRole("heading", { name: "Estimates", level: 1 })).toBeVisible();
  await expect(stat(page, "Total Estimates")).toHaveText("3");
  await expect(stat(page, "Pending Review")).toHaveText("1");
  await expect(stat(page, "Total Value")).toHaveText("$625.50");
  await expect(stat(page, "Sent Today")).toHaveText("1");
  await expect(cards(page)).toHaveCount(3);
  const civic = page.getByRole("listitem", { name: "Old Civic" });
  await expect(civic.getByText("Unknown contact")).toBeVisible();
  await expect(civic.getByText("+1 more")).toBeVisible();
  await expect(page.getByRole("listitem", { name: "Kia bumper" }).getByTestId("estimate-cost")).toHaveText("TBD");
  await expect(civic.getByRole("button", { name: "Email Old Civic" })).toBeDisabled();

  // Search (case-insensitive, by model) and the status filter.
  const search = page.getByRole("searchbox", { name: "Search estimates" });
  await expect(search).toHaveAttribute("placeholder", "Search estimates...");
  await search.fill("CAMRY");
  await search.press("Enter");
  await expect(page).toHaveURL(/q=CAMRY/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute("aria-label", "Silver Camry");
  await page.goto("/estimates");
  await page.getByRole("combobox", { name: "Status" }).selectOption("sent");
  if (noJs()) await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=sent/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute("aria-label", "Old Civic");
  await page.getByRole("combobox", { name: "Status" }).selectOption("reviewed");
  if (noJs()) await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No estimates match your current filters.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Create Your First Estimate" })).toHaveAttribute("href", "/upload");

  // The detail, then Approve.
  await page.goto("/estimates");
  await page.getByRole("link", { name: "View Silver Camry" }).click();
  await expect(dialog(page).getByTestId("estimate-vin")).toHaveText("1HGCM82633A004352");
  await expect(dialog(page).getByTestId("estimate-total")).toHaveText("$425.50");
  await expect(dialog(page).getByText("Not specified").first()).toBeVisible();
  // Why this price: the dent's flat amount is the vendor's base price, in a <details> that opens without script.
  const why = dialog(page).getByTestId("line-basis").first();
  await why.getByText("Why this price").click();
  await expect(why.getByText("The vendor's price for dent (moderate)")).toBeVisible();
  await expect(why.getByText("Base price $100.00")).toBeVisible();
  await expect(dialog(page).getByText("Other charges")).toHaveCount(0);
  await dialog(page).getByRole("button", { name: "Approve" }).click();
  await expectToast(page, "Assessment Approved", "“Silver Camry” is reviewed and ready to send.");
  await expect(dialog(page).getByTestId("status-badge")).toHaveText("reviewed");

  // Edit the dent's line: the reason is required once the total changes.
  await dialog(page).getByRole("link", { name: "Edit" }).click();
  // The dent's line: labour $100 + parts $100 + the rule's flat amount $100; the flat amount to $250.
  const firstRow = dialog(page).getByTestId("sheet-line-row").first();
  await expect(firstRow.getByLabel("Sublet / other (USD)")).toHaveValue("100.00");
  await firstRow.getByLabel("Sublet / other (USD)").fill("250");
  await dialog(page).getByRole("button", { name: "Save Estimate" }).click();
  await expect(dialog(page).getByText("A reason is required when the total changes")).toBeVisible();
  await dialog(page).getByLabel("Reason for the change").fill("OEM door skin needed");
  await dialog(page).getByRole("button", { name: "Save Estimate" }).click();
  await expectToast(page, "Estimate Updated", "“Silver Camry” has been updated.");
  await expect(dialog(page).getByTestId("estimate-total")).toHaveText("$575.50");
  const audit = dialog(page).getByTestId("audit-trail");
  await expect(audit.getByText("Reason: OEM door skin needed")).toBeVisible();
  await expect(audit.getByText("Total: $425.50 → $575.50")).toBeVisible();
  await expect(audit.getByText("dent (moderate, left): $300.00 → $450.00")).toBeVisible();

  // Download the PDF.
  const [download] = await Promise.all([page.waitForEvent("download"), dialog(page).getByRole("link", { name: "Download PDF" }).click()]);
  // Named by the estimate's number (and its supplement's, when there is one), not its id (decision 0053).
  expect(download.suggestedFilename()).toMatch(/^estimate-[0-9A-F]{8}(?:-S\d{2})?\.pdf$/);
  const file = await download.path();
  expect(readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
});

test("the reviewer writes lines as a shop does: a part, a refinish with paint materials, a removed line; totals by category", async ({ page, loginAs, createUser }) => {
  test.setTimeout(60_000);
  const vendor = await createUser("vendor");
  const dealer = await loginAs("dealer");
  await seed(dealer.id, vendor.id);
  await page.goto("/estimates");
  await page.getByRole("link", { name: "View Silver Camry" }).click();
  await expect(dialog(page).getByTestId("sheet-line")).toHaveCount(2);
  await dialog(page).getByRole("link", { name: "Edit" }).click();

  const rows = dialog(page).getByTestId("sheet-line-row");
  await expect(rows).toHaveCount(3);
  const added = rows.last();
  await added.getByLabel("Damage").selectOption({ label: "#1 dent (left)" });
  await added.getByLabel("Operation").selectOption("replace");
  await added.getByLabel("Description", { exact: true }).fill("Door shell LF");
  await added.getByLabel("Part type").selectOption("oem");
  await added.getByLabel("Part number").fill("67001-TBA-A00");
  await added.getByLabel("Qty").fill("1");
  await added.getByLabel("Unit price").fill("489.99");
  await added.getByLabel("Labour", { exact: true }).selectOption("body");
  await added.getByLabel("Hours").fill("1.5");
  await dialog(page).getByLabel("Paint materials (USD per refinish hour)").fill("35");
  await dialog(page).getByLabel("Reason for the change").fill("Door shell must be replaced");
  await dialog(page).getByRole("button", { name: "Save Estimate" }).click();
  await expectToast(page, "Estimate Updated", "“Silver Camry” has been updated.");
  // 425.50 + 489.99 + 1.5 h × $50 (the body rate).
  await expect(dialog(page).getByTestId("estimate-total")).toHaveText("$990.49");
  const table = dialog(page).getByTestId("estimate-lines");
  await expect(table.getByText("OEM part 67001-TBA-A00 × 1 @ $489.99", { exact: false })).toBeVisible();
  await expect(table.getByRole("row", { name: /Labour \(body\)/ })).toContainText("$275.00");
  await expect(dialog(page).getByTestId("audit-trail").getByText("Added line Replace Door shell LF: $564.99")).toBeVisible();

  // A refinish line bills paint materials; the part line goes again.
  await dialog(page).getByRole("link", { name: "Edit" }).click();
  await expect(rows).toHaveCount(4);
  await rows.nth(2).getByLabel("Remove this line").check();
  const refinish = rows.last();
  await refinish.getByLabel("Damage").selectOption({ label: "#2 scratch (front)" });
  await refinish.getByLabel("Operation").selectOption("refinish");
  await refinish.getByLabel("Labour", { exact: true }).selectOption("refinish");
  await refinish.getByLabel("Hours").fill("2");
  await refinish.getByLabel("Rate (USD/h)").fill("60");
  await dialog(page).getByLabel("Reason for the change").fill("Shell repairable; bumper refinish");
  await dialog(page).getByRole("button", { name: "Save Estimate" }).click();
  await expectToast(page, "Estimate Updated", "“Silver Camry” has been updated.");
  // 425.50 + 2 h × $60 + 2 h × $35 materials.
  await expect(dialog(page).getByTestId("estimate-total")).toHaveText("$615.50");
  await expect(table.getByRole("row", { name: /Paint materials/ })).toContainText("$70.00");
  await expect(table.getByText("OEM part", { exact: false })).toHaveCount(0);
});

test("at 360 px the list, the detail and the edit form fit without sideways scrolling", async ({ page, loginAs, createUser }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const vendor = await createUser("vendor");
  const dealer = await loginAs("dealer");
  await seed(dealer.id, vendor.id);
  await page.goto("/estimates");
  const id = (await page.getByRole("link", { name: "View Silver Camry" }).getAttribute("href"))!.split("view=")[1];
  for (const path of ["/estimates", `/estimates?view=${id}`, `/estimates?edit=${id}`, `/estimates?delete=${id}`]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
    // Nor does any box inside it (a table in the dialog scrolling its amounts out of sight).
    const scrolling = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${el.scrollWidth} > ${el.clientWidth})`),
    );
    expect(scrolling, `${path} has boxes that scroll sideways`).toEqual([]);
  }
  await page.goto(`/estimates?view=${id}`);
  const total = page.getByTestId("estimate-total");
  await total.scrollIntoViewIfNeeded();
  const box = (await total.boundingBox())!;
  expect(box.x + box.width, "the total is on screen").toBeLessThanOrEqual(360);
});

test("a sent estimate edited into version 2 counts once, with its version, and the first version stays reachable", async ({ page, loginAs, createUser }) => {
  test.setTimeout(60_000);
  const vendor = await createUser("vendor");
  const dealer = await loginAs("dealer");
  await insertAssessment({
    ownerId: dealer.id,
    vendorId: vendor.id,
    title: "Red Polo",
    vehicleMake: "VW",
    status: "sent",
    sentAt: new Date(),
    severity: "moderate",
    estimatedCost: 300,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 }],
    damageCategories: ["dent"],
    lineItems: [line("dent", "moderate", "left", 30000)],
  });

  await page.goto("/estimates");
  await page.getByRole("link", { name: "View Red Polo" }).click();
  await dialog(page).getByRole("link", { name: "Edit (new supplement)" }).click();
  await dialog(page).getByTestId("sheet-line-row").first().getByLabel("Sublet / other (USD)").fill("250");
  await dialog(page).getByLabel("Reason for the change").fill("Hidden damage behind the panel");
  await dialog(page).getByRole("button", { name: "Create Supplement" }).click();
  await expect(dialog(page).getByTestId("earlier-versions")).toContainText("Supplement S01 (version 2)");
  await expect(dialog(page).getByTestId("earlier-versions")).toContainText("Original (version 1, sent)");
  await expect(dialog(page).getByTestId("version-differences")).toContainText("Total: $300.00 → $450.00");

  await page.goto("/estimates");
  await expect(stat(page, "Total Estimates")).toHaveText("1");
  await expect(stat(page, "Total Value")).toHaveText("$450.00");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first().getByTestId("version-badge")).toHaveText("Supplement S01");
  // The first version, from the latest one.
  await page.getByRole("link", { name: "View Red Polo" }).click();
  await dialog(page).getByTestId("earlier-versions").getByRole("link", { name: "Original (version 1, sent)" }).click();
  await expect(dialog(page).getByTestId("later-versions")).toContainText("S01 (version 2, reviewed)");
  await expect(dialog(page).getByTestId("estimate-total")).toHaveText("$300.00");

  await page.goto("/");
  await expect(page.getByRole("group", { name: "Total Assessments" }).getByTestId("stat-value")).toHaveText("1");
  const recent = page.getByTestId("recent-assessment");
  await expect(recent).toHaveCount(1);
  await expect(recent.first().getByTestId("version-badge")).toHaveText("Supplement S01");
});

test("an estimate without a customer gets one in Edit Estimate, and its Email button works", async ({ page, loginAs, createUser }) => {
  const vendor = await createUser("vendor");
  const dealer = await loginAs("dealer");
  await seed(dealer.id, vendor.id);
  const contact = await page.request.post("/api/contacts", { data: { firstName: "Carla", lastName: "Customer", email: "carla@example.com" } });
  expect(contact.status()).toBe(201);
  await page.goto("/estimates");
  await page.getByRole("link", { name: "View Silver Camry" }).click();
  await expect(dialog(page).getByRole("button", { name: "Email" })).toBeDisabled();
  await dialog(page).getByRole("link", { name: "Edit" }).click();
  await dialog(page).getByLabel("Customer").selectOption({ label: "Carla Customer" });
  await dialog(page).getByRole("button", { name: "Save Estimate" }).click();
  await expectToast(page, "Estimate Updated", "“Silver Camry” has been updated.");
  await expect(dialog(page).getByText("Carla Customer").first()).toBeVisible();
  await expect(dialog(page).getByTestId("audit-trail").getByText("Customer: none → Carla Customer")).toBeVisible();
  await dialog(page).getByRole("button", { name: "Email" }).click();
  // The confirm step (issue 40 item 3), then it leaves.
  await page.getByTestId("send-confirm").getByRole("button", { name: "Send Email" }).click();
  // No mail server in the walks: the estimate is kept in the mail drop, and the toast says so.
  await expectToast(page, "Email Saved, Not Sent", "No mail server is configured");
});

test("the spec's words: login toast, dashboard costs, download and Generate Report, Verified, delete toast, Reject → Analyze, Data Export", async ({ page, createUser }) => {
  test.setTimeout(60_000);
  const vendor = await createUser("vendor");
  const dealer = await createUser("dealer");
  await seed(dealer.id, vendor.id);
  await page.goto("/login?tab=dealer");
  await page.getByLabel("Username").fill(dealer.username);
  await page.locator('input[name="password"]').fill(dealer.password);
  await page.getByRole("button", { name: "Sign in as Dealer" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Dealer login successful! Redirecting to dashboard...").first()).toBeVisible();

  // Dashboard: whole dollars, a download per recent row, Generate Report gives the chosen PDF, Verified rates.
  const camry = page.getByTestId("recent-assessment").filter({ hasText: "Silver Camry" });
  await expect(camry.getByText("$426", { exact: true })).toBeVisible();
  await expect(camry.getByRole("link", { name: "Download Silver Camry" })).toHaveAttribute("href", /\/api\/assessments\/[0-9a-f]{24}\/estimate\.pdf$/);
  await expect(page.getByTestId("vendor-pricing").getByText("Verified").first()).toBeVisible();
  await page.getByTestId("generate-report").getByText("Generate Report").click();
  const [report] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("generate-report").getByRole("link", { name: "Silver Camry (PDF)" }).click(),
  ]);
  expect(readFileSync(await report.path()).subarray(0, 5).toString()).toBe("%PDF-");

  // Reject offers Analyze, and the estimate dialog has it.
  await page.goto("/estimates");
  await page.getByRole("link", { name: "View Silver Camry" }).click();
  await dialog(page).getByRole("button", { name: "Reject" }).click();
  await expectToast(page, "Assessment Rejected", "“Silver Camry” is back in Upload: choose Analyze to run the analysis again, or Edit to price it by hand.");
  await dialog(page).getByRole("button", { name: "Analyze" }).click();
  await expectToast(page, "Analysis Started", "“Silver Camry” is being analyzed: the result shows here when it is done.");

  // Delete: the spec's toast.
  await page.goto("/estimates");
  await page.getByRole("button", { name: "Delete Kia bumper" }).or(page.getByRole("link", { name: "Delete Kia bumper" })).click();
  await dialog(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Assessment Deleted", "Assessment has been successfully deleted.");

  // Export Data: the 'Data Export' message, and the archive still downloads.
  await page.goto("/settings?tab=system");
  const [archive] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-data").click()]);
  expect(archive.suggestedFilename()).toMatch(/\.tar\.gz$/);
  // With JavaScript the click says so (without it, the browser's own download bar is the answer).
  if (!noJs()) await expect(page.getByRole("alert").filter({ hasText: "Your data export is being prepared" }).getByText("Data Export", { exact: true })).toBeVisible();
});
