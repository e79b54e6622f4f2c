import type { Page } from "@playwright/test";
import { Assessment } from "../app/models/assessment.server";
import { client, tokenFor } from "../tests/accounts";
import type { RunningApp } from "../tests/app-server";
import { expect, test } from "./fixtures";

// Estimate Detail lists the estimate's customer links (issue 27 item 5) and revokes one, with
// JavaScript on and off: created, expires, last viewed; a revoked link's page answers 410.

const noJs = () => test.info().project.name === "no-js";
const dialog = (page: Page) => page.getByRole("dialog");

test("the detail lists the customer links with their dates and revokes the active one", async ({ page, loginAs }) => {
  const user = await loginAs("dealer");
  const api = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(user.id) });
  const estimate = await Assessment.create({
    ownerId: user.id,
    title: "White Golf door",
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 300,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 }],
    damageCategories: ["dent"],
    lineItems: [{ damageType: "dent", severity: "moderate", location: "left", priced: true, totalCents: 30000 }],
  });
  const id = String(estimate._id);
  const link = await api.post(`/api/assessments/${id}/links`);
  expect(link.status).toBe(201);
  const path = new URL(link.json.url as string).pathname;
  // The customer opens it once.
  expect((await page.request.get(path)).status()).toBe(200);

  await page.goto(`/estimates?view=${id}`);
  const row = dialog(page).getByTestId("customer-link");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("link-state")).toHaveText("active");
  await expect(row).toContainText("Version 1");
  await expect(row).toContainText("Created ");
  await expect(row).toContainText("Expires ");
  await expect(row).toContainText("Last viewed ");
  await expect(row).toContainText("(1 view)");

  await row.getByRole("button", { name: "Revoke the link to version 1" }).click();
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: "The customer link to version 1 no longer opens the estimate." });
  await expect(toast).toBeVisible();
  await expect(row.getByTestId("link-state")).toHaveText("revoked");
  await expect(row).toContainText("Revoked ");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  expect((await page.request.get(path)).status()).toBe(410);
  const listed = await api.get(`/api/assessments/${id}/links`);
  expect(listed.json.links[0]).toMatchObject({ id: link.json.id, state: "revoked" });
});

test("another dealer's link cannot be revoked from the screen", async ({ page, loginAs, createUser }) => {
  const owner = await createUser("dealer");
  const ownerApi = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(owner.id) });
  const estimate = await Assessment.create({
    ownerId: owner.id,
    title: "Someone else's",
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 100,
    damages: [],
    damageCategories: [],
    lineItems: [],
  });
  const link = await ownerApi.post(`/api/assessments/${String(estimate._id)}/links`);
  expect(link.status).toBe(201);
  await loginAs("dealer");
  await page.goto("/estimates");
  const res = await page.request.post("/estimates", {
    form: { intent: "revoke-link", id: String(estimate._id), linkId: link.json.id as string },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  // Answered (back to the list with an error toast: the estimate is not in this dealer's scope), not revoked.
  expect(res.status()).toBe(302);
  const listed = await ownerApi.get(`/api/assessments/${String(estimate._id)}/links`);
  expect(listed.json.links[0].state).toBe("active");
});
