import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

// Issue 40 item 1 on the Compose screen, JavaScript on and off: sending Jane Doe's estimate to John
// Roe asks "Make John Roe this estimate's customer" (live with JavaScript, after the server's refusal
// without it); unticked, nothing is sent; ticked, it is sent and John Roe is the estimate's customer.

const dialog = (page: Page) => page.getByRole("dialog");

async function seed(ownerId: string) {
  const owner = new mongoose.Types.ObjectId(ownerId);
  const now = new Date();
  const contacts = mongoose.connection.collection("contacts");
  const jane = await contacts.insertOne({ ownerId: owner, firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com", createdAt: now, updatedAt: now });
  await contacts.insertOne({ ownerId: owner, firstName: "John", lastName: "Roe", email: "john.roe@example.com", createdAt: now, updatedAt: now });
  const assessmentId = await insertAssessment({ ownerId: owner, title: "Silver Camry", contactId: jane.insertedId, status: "reviewed", estimatedCost: 425.5 });
  return { assessmentId };
}

test("Compose to another contact asks to make them the estimate's customer", async ({ page, loginAs }) => {
  const user = await loginAs("dealer");
  const { assessmentId } = await seed(user.id);
  const emails = () => mongoose.connection.collection("emaillogs").countDocuments({ assessmentId: new mongoose.Types.ObjectId(assessmentId) });

  await page.goto(`/email?dialog=compose&assessment=${assessmentId}`);
  await dialog(page).getByLabel("Assessment").selectOption({ label: "Silver Camry" });
  await dialog(page).getByLabel("Contact").selectOption({ label: "John Roe <john.roe@example.com>" });
  await dialog(page).getByRole("button", { name: "Send Email" }).click();
  // Refused by the server (both ways): the confirmation with the reason, and nothing sent.
  const confirm = dialog(page).getByLabel("Make John Roe this estimate's customer");
  await expect(confirm).toBeVisible();
  await expect(dialog(page).getByText("This estimate's customer is Jane Doe, not John Roe.", { exact: false })).toBeVisible();
  expect(await emails()).toBe(0);

  await confirm.check();
  await dialog(page).getByRole("button", { name: "Send Email" }).click();
  // The confirm step shows who it goes to and says they become the customer; nothing sent yet.
  await expect(dialog(page).getByTestId("send-recipient")).toHaveText("John Roe <john.roe@example.com>");
  await expect(dialog(page).getByText("John Roe becomes this estimate's customer.")).toBeVisible();
  expect(await emails()).toBe(0);
  await dialog(page).getByTestId("send-confirm").getByRole("button", { name: "Send Email" }).click();
  await expect(page.getByRole("tab", { name: /Email Logs \(1\)/ })).toBeVisible();
  expect(await emails()).toBe(1);
  const stored = await mongoose.connection.collection("assessments").findOne({ _id: new mongoose.Types.ObjectId(assessmentId) });
  const john = await mongoose.connection.collection("contacts").findOne({ email: "john.roe@example.com", ownerId: new mongoose.Types.ObjectId(user.id) });
  expect(String(stored?.contactId)).toBe(String(john?._id));
  expect(stored?.audit.at(-1)).toMatchObject({ action: "customer changed", changes: ["Customer: Jane Doe → John Roe"] });

  // With JavaScript the confirmation appears as soon as another contact is picked, and goes with the customer again.
  if (test.info().project.name !== "no-js") {
    await page.goto(`/email?dialog=compose`);
    await dialog(page).getByLabel("Assessment").selectOption({ label: "Silver Camry" });
    await dialog(page).getByLabel("Contact").selectOption({ label: "Jane Doe <jane.doe@example.com>" });
    await expect(dialog(page).getByLabel("Make Jane Doe this estimate's customer")).toBeVisible();
    await dialog(page).getByLabel("Contact").selectOption({ label: "John Roe <john.roe@example.com>" });
    await expect(dialog(page).getByText(/this estimate's customer/)).toHaveCount(0);
  }
});
