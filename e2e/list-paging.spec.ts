import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

// Estimates and Contacts page by cursor (docs/decisions/0036), JavaScript on and off: "Older" and
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
