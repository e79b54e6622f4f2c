import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

// Every list screen pages by cursor (docs/decisions/0036, 0044), JavaScript on and off: "Older" and
// "Newer" are plain links that keep the filter; a record created while paging is neither repeated
// nor skipped: it waits at the top, one Newer away.

const minute = (n: number) => new Date(Date.UTC(2025, 5, 1, 9, n));
const titles = (page: Page) => page.getByTestId("estimate-card").evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label")));
const older = (page: Page) => page.getByRole("link", { name: "Older" });
const newer = (page: Page) => page.getByRole("link", { name: "Newer" });

test("Estimates: Older then Newer keeps the filter, and an estimate created meanwhile is one Newer away", async ({ page, loginAs }) => {
  const dealer = await loginAs("dealer");
  for (let i = 0; i < 30; i++) await insertAssessment({ ownerId: dealer.id, title: `Paged ${String(i).padStart(2, "0")}`, status: "uploaded", createdAt: minute(i) });
  await insertAssessment({ ownerId: dealer.id, title: "Sent one", status: "sent", createdAt: minute(40) });
  const names = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `Paged ${String(to - 1 - i).padStart(2, "0")}`);

  await page.goto("/estimates?status=uploaded");
  await expect(page.getByTestId("estimate-card")).toHaveCount(24);
  expect(await titles(page)).toEqual(names(6, 30));
  await expect(newer(page)).toHaveCount(0);

  await older(page).click();
  await expect(page).toHaveURL(/status=uploaded/);
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByTestId("estimate-card")).toHaveCount(6);
  expect(await titles(page)).toEqual(names(0, 6));
  await expect(older(page)).toHaveCount(0);

  await insertAssessment({ ownerId: dealer.id, title: "Paged 99", status: "uploaded" });
  await newer(page).click();
  await expect(page.getByTestId("estimate-card")).toHaveCount(24);
  expect(await titles(page)).toEqual(names(6, 30));
  await newer(page).click();
  await expect(page.getByTestId("estimate-card")).toHaveCount(1);
  expect(await titles(page)).toEqual(["Paged 99"]);
  await expect(page).toHaveURL(/status=uploaded/);
  await expect(newer(page)).toHaveCount(0);
});

test("Contacts: Older then Newer", async ({ page, loginAs }) => {
  const dealer = await loginAs("dealer");
  const ownerId = new mongoose.Types.ObjectId(dealer.id);
  await mongoose.connection.collection("contacts").insertMany(
    Array.from({ length: 26 }, (_, i) => ({ ownerId, firstName: "Paged", lastName: `Contact${String(i).padStart(2, "0")}`, email: `c${i}@paged.test`, createdAt: minute(i), updatedAt: minute(i) })),
  );
  const cards = page.getByTestId("contact-card");

  await page.goto("/contacts");
  await expect(cards).toHaveCount(24);
  await expect(cards.first()).toHaveAccessibleName("Paged Contact25");
  await older(page).click();
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toHaveAccessibleName("Paged Contact01");
  await expect(cards.last()).toHaveAccessibleName("Paged Contact00");
  await newer(page).click();
  await expect(cards).toHaveCount(24);
  await expect(cards.last()).toHaveAccessibleName("Paged Contact02");
  await expect(newer(page)).toHaveCount(0);
});

const logOf = (ownerId: string, subject: string, createdAt = new Date()) => ({
  ownerId: new mongoose.Types.ObjectId(ownerId),
  kind: "estimate",
  idempotencyKey: `paged-${subject}`,
  recipientEmail: "jane@example.com",
  subject,
  html: "<p>Hi</p>",
  text: "Hi",
  status: "sent",
  messageId: `<${subject.replace(/ /g, "-")}@example.com>`,
  attempts: [],
  inFlight: false,
  localDrop: false,
  attachEstimate: false,
  sentAt: createdAt,
  createdAt,
  updatedAt: createdAt,
});

test("Email logs: Older then Newer keeps the tab, and an email sent meanwhile is one Newer away", async ({ page, loginAs }) => {
  const dealer = await loginAs("dealer");
  const logs = mongoose.connection.collection("emaillogs");
  await logs.insertMany(Array.from({ length: 26 }, (_, i) => logOf(dealer.id, `Paged log ${String(i).padStart(2, "0")}`, minute(i))));
  const cards = page.getByTestId("log-card");

  await page.goto("/email?tab=logs");
  await expect(cards).toHaveCount(24);
  await expect(cards.first()).toHaveAccessibleName("Paged log 25");
  await expect(newer(page)).toHaveCount(0);
  await older(page).click();
  await expect(page).toHaveURL(/tab=logs/);
  await expect(page).toHaveURL(/cursor=/);
  await expect(cards).toHaveCount(2);
  await expect(cards.last()).toHaveAccessibleName("Paged log 00");
  await expect(older(page)).toHaveCount(0);

  await logs.insertOne(logOf(dealer.id, "Paged log 99"));
  await newer(page).click();
  await expect(cards).toHaveCount(24);
  await expect(cards.first()).toHaveAccessibleName("Paged log 25");
  await expect(cards.last()).toHaveAccessibleName("Paged log 02");
  await newer(page).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toHaveAccessibleName("Paged log 99");
  await expect(page).toHaveURL(/tab=logs/);
  await expect(newer(page)).toHaveCount(0);
});

test("AI Training: Older then Newer keeps the filters", async ({ page, loginAs }) => {
  const admin = await loginAs("admin");
  const items = mongoose.connection.collection("trainingitems");
  // Training data is the platform's, not an account's: start from none (the tests run one at a time).
  await items.deleteMany({});
  const itemOf = (description: string, damageType: string, createdAt = new Date()) => ({
    createdBy: new mongoose.Types.ObjectId(admin.id),
    imageUrl: "/media/6650c0ffee0123456789abcd",
    damageType,
    severity: "minor",
    description,
    estimatedCost: 100,
    tags: [],
    isVerified: false,
    paintWork: false,
    createdAt,
    updatedAt: createdAt,
  });
  await items.insertMany([
    ...Array.from({ length: 26 }, (_, i) => itemOf(`Paged dent ${String(i).padStart(2, "0")}`, "dent", minute(i))),
    ...Array.from({ length: 3 }, (_, i) => itemOf(`Paged scratch ${i}`, "scratch", minute(i))),
  ]);
  const cards = page.getByTestId("training-card");
  const description = (n: number) => cards.nth(n).getByText(/^Paged /);

  await page.goto("/ai-training?damageType=dent");
  await expect(cards).toHaveCount(24);
  await expect(description(0)).toHaveText("Paged dent 25");
  await older(page).click();
  await expect(page).toHaveURL(/damageType=dent/);
  await expect(page).toHaveURL(/cursor=/);
  await expect(cards).toHaveCount(2);
  await expect(description(0)).toHaveText("Paged dent 01");
  await expect(description(1)).toHaveText("Paged dent 00");
  await expect(older(page)).toHaveCount(0);

  await items.insertOne(itemOf("Paged dent 99", "dent"));
  await newer(page).click();
  await expect(cards).toHaveCount(24);
  await expect(description(23)).toHaveText("Paged dent 02");
  await newer(page).click();
  await expect(cards).toHaveCount(1);
  await expect(description(0)).toHaveText("Paged dent 99");
  await expect(page).toHaveURL(/damageType=dent/);
  await expect(newer(page)).toHaveCount(0);
});
