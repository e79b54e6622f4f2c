import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

// Issue 40 item 3, confirm before it leaves, JavaScript on and off: "Send to Customer" on the
// wizard's result and "Email" in the estimate dialog open the confirm step — the recipient, the
// template (choosable), the email as it will read, the PDF, and a warning for an estimate that was
// never analysed and costs TBD — and only its own "Send Email" sends; the email is then in the log.

const noJs = () => test.info().project.name === "no-js";
const confirmStep = (page: Page) => page.getByTestId("send-confirm");

async function seed(ownerId: string) {
  const owner = new mongoose.Types.ObjectId(ownerId);
  const now = new Date();
  const jane = await mongoose.connection
    .collection("contacts")
    .insertOne({ ownerId: owner, firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com", createdAt: now, updatedAt: now });
  await mongoose.connection.collection("emailtemplates").insertOne({
    ownerId: owner,
    name: "Friendly",
    subject: "Hello {{contact.firstName}}: {{assessment.title}}",
    htmlContent: "<p>Hi {{contact.firstName}}, the cost is {{assessment.estimatedCost}}.</p>",
    isDefault: false,
    createdAt: now,
    updatedAt: now,
  });
  const id = await insertAssessment({
    ownerId: owner,
    contactId: jane.insertedId,
    title: "Blue Civic",
    vehicleYear: 2020,
    vehicleMake: "Honda",
    vehicleModel: "Civic",
    status: "completed",
    estimatedCost: null,
    aiAnalysis: { confidence: 0, description: "Not analysed", provider: "none", model: null },
  });
  return id;
}

const emails = (id: string) => mongoose.connection.collection("emaillogs").countDocuments({ assessmentId: new mongoose.Types.ObjectId(id) });

/** On the confirm step: what it shows, another template picked, then sent. */
async function confirmAndSend(page: Page, id: string, sentBefore: number) {
  await expect(page).toHaveURL(/\/send\?/);
  const step = confirmStep(page);
  await expect(step.getByTestId("send-recipient")).toHaveText("Jane Doe <jane.doe@example.com>");
  await expect(step.getByTestId("send-warning")).toContainText("It was not analysed: nothing looked at its photos.");
  await expect(step.getByTestId("send-warning")).toContainText("Its cost is TBD: the customer will see TBD, not a price.");
  await expect(step.getByTestId("preview-subject")).toHaveText("Your estimate: Blue Civic");
  await expect(step.frameLocator("iframe").getByText("Dear Jane Doe,")).toBeVisible();
  await expect(step.frameLocator("iframe").locator("strong")).toHaveText("TBD");
  await expect(step.getByTestId("send-attachment")).toHaveText(`Estimate ${id.slice(-8).toUpperCase()} - 2020 Honda Civic.pdf`);
  expect(await emails(id)).toBe(sentBefore);

  // Another template: with JavaScript the preview follows the pick; without it, "Update Preview".
  await step.getByLabel("Template").selectOption({ label: "Friendly" });
  if (noJs()) await step.getByRole("button", { name: "Update Preview" }).click();
  await expect(confirmStep(page).getByTestId("preview-subject")).toHaveText("Hello Jane: Blue Civic");
  await expect(confirmStep(page).frameLocator("iframe").getByText("Hi Jane, the cost is TBD.")).toBeVisible();
  expect(await emails(id)).toBe(sentBefore);

  await confirmStep(page).getByRole("button", { name: "Send Email" }).click();
  await expect(page.getByText("Email Saved, Not Sent").first()).toBeVisible();
  expect(await emails(id)).toBe(sentBefore + 1);
}

test("the wizard's Send to Customer and the estimate's Email confirm before sending", async ({ page, loginAs }) => {
  test.setTimeout(60_000);
  const user = await loginAs("dealer");
  const id = await seed(user.id);

  await page.goto(`/upload?assessment=${id}`);
  await page.getByRole("button", { name: "Send to Customer" }).click();
  await confirmAndSend(page, id, 0);
  await expect(page).toHaveURL(new RegExp(`/upload\\?assessment=${id}`));

  await page.goto(`/estimates?view=${id}`);
  await page.getByRole("dialog").getByRole("button", { name: "Email", exact: true }).click();
  await confirmAndSend(page, id, 1);

  // Both are in the email log, with the template picked on the confirm step.
  await page.goto("/email?tab=logs");
  await expect(page.getByRole("tab", { name: "Email Logs (2)" })).toBeVisible();
  await expect(page.getByRole("listitem", { name: "Hello Jane: Blue Civic" })).toHaveCount(2);
});
