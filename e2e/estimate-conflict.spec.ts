import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { engineLine } from "../tests/estimate-lines";
import { expect, test } from "./fixtures";

// Issue 37 item 7, with JavaScript on and off: Edit Estimate is opened, someone else saves the
// estimate meanwhile (a back-office system through the API), then Save. Nothing is overwritten: the
// form says what changed and the total now, keeps what was typed, and saving again after reading
// that goes through.

const dialog = (page: Page) => page.getByRole("dialog");

async function seed(ownerId: string) {
  const now = new Date();
  const { insertedId } = await mongoose.connection.collection("assessments").insertOne({
    ownerId: new mongoose.Types.ObjectId(ownerId),
    title: "Red Polo",
    vehicleMake: "Volkswagen",
    mediaUrls: [],
    photoHashes: [],
    photoBands: [],
    photoWarnings: [],
    audit: [],
    status: "completed",
    severity: "moderate",
    estimatedCost: 425.5,
    damages: [
      { damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 },
      { damageType: "scratch", location: "front", severity: "minor", description: "Bumper scratch", confidence: 0.7 },
    ],
    damageCategories: ["dent", "scratch"],
    lineItems: [engineLine("dent", "moderate", "left", 30000, 10000), engineLine("scratch", "minor", "front", 12550, -7450)],
    createdAt: now,
    updatedAt: now,
  });
  return String(insertedId);
}

type Line = { id: string; damage: number | null; operation: string; description: string; amountCents: number; labour: { category: string; hours: number; rateCents: number } | null; part: { type: string; number: string; description: string; quantity: number; unitPriceCents: number } | null; note: string };

/** The back office's edit through the API (the page's session): a $500 deductible, every line kept. */
async function otherEdit(page: Page, id: string) {
  const current = await (await page.request.get(`/api/assessments/${id}`)).json();
  const res = await page.request.put(`/api/assessments/${id}/estimate`, {
    headers: { "If-Match": `"r${current.revision}"` },
    data: {
      reason: "Insurer claim 4471",
      severity: current.severity,
      deductibleCents: 50000,
      damages: current.damages.map((d: { damageType: string; location: string; severity: string }, line: number) => ({ line, damageType: d.damageType, location: d.location, severity: d.severity })),
      lines: (current.sheet.lines as Line[]).map((l) => ({
        id: l.id,
        damage: l.damage,
        operation: l.operation,
        description: l.description,
        note: l.note,
        amountCents: l.amountCents,
        ...(l.labour ? { labourCategory: l.labour.category, hours: l.labour.hours, rateCents: l.labour.rateCents } : {}),
        ...(l.part ? { partType: l.part.type, partNumber: l.part.number, partDescription: l.part.description, quantity: l.part.quantity, unitPriceCents: l.part.unitPriceCents } : {}),
      })),
    },
  });
  expect(res.status()).toBe(200);
}

test("a save over someone else's meanwhile is refused with what they changed, and keeps what was typed", async ({ page, loginAs }) => {
  test.setTimeout(60_000);
  const dealer = await loginAs("dealer");
  const id = await seed(dealer.id);
  await page.goto(`/estimates?edit=${id}`);
  const rows = dialog(page).getByTestId("sheet-line-row");
  await rows.first().getByLabel("Description", { exact: true }).fill("Door skin, paintless repair");
  await dialog(page).getByLabel("Reason for the change").fill("PDR instead of a new skin");

  await otherEdit(page, id);
  await dialog(page).getByRole("button", { name: "Save Estimate" }).click();

  const conflict = page.getByTestId("estimate-conflict");
  // The answer re-renders the whole dialog: slow on a loaded machine, hence the longer wait.
  await expect(conflict).toContainText("This estimate changed since you opened it: nothing was saved", { timeout: 20_000 });
  await expect(conflict).toContainText("Insurer claim 4471");
  await expect(conflict).toContainText("Deductible: none → $500.00");
  await expect(conflict).toContainText("Total now: $425.50");
  // What was typed is still there, on the line it was typed on.
  await expect(rows.first().getByLabel("Description", { exact: true })).toHaveValue("Door skin, paintless repair");
  await expect(dialog(page).getByLabel("Reason for the change")).toHaveValue("PDR instead of a new skin");
  const stored = await mongoose.connection.collection("assessments").findOne({ _id: new mongoose.Types.ObjectId(id) });
  expect(stored?.estimateSheet?.deductibleCents).toBe(50000);
  expect(stored?.audit.map((e: { note?: string }) => e.note)).toEqual(["Insurer claim 4471"]);

  // Saved again after reading it: the reviewer's version replaces theirs, deliberately.
  await dialog(page).getByRole("button", { name: "Save Estimate" }).click();
  await expect(page.getByTestId("estimate-conflict")).toHaveCount(0);
  await expect(dialog(page).getByTestId("audit-trail")).toContainText("PDR instead of a new skin");
  const saved = await mongoose.connection.collection("assessments").findOne({ _id: new mongoose.Types.ObjectId(id) });
  expect(saved?.estimateSheet?.lines[0].description).toBe("Door skin, paintless repair");
});
