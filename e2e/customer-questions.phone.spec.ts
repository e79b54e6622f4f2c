import { Assessment } from "../app/models/assessment.server";
import { EstimateQuestion } from "../app/models/estimate-question.server";
import { client, tokenFor } from "../tests/accounts";
import type { RunningApp } from "../tests/app-server";
import { expect, test } from "./fixtures";

// Conversations are records (issue 40 item 4, docs/decisions/0058), on a phone (projects `phone` and
// `phone-no-js`: 360 px, touch): the customer asks on their estimate page and sees the question
// there; the dealer, signed in on the same phone, finds it on the estimate and answers with the
// plain form; the customer's page then shows the answer.

test("the customer asks on a 360 px page, the dealer answers on the estimate, the customer reads the answer", async ({ page, loginAs }) => {
  const dealer = await loginAs("dealer");
  const api = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(dealer.id) });
  const contact = await api.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com" });
  const estimate = await Assessment.create({ ownerId: dealer.id, title: "Red Focus wing", contactId: contact.json.id, status: "sent", sentAt: new Date(), estimatedCost: 210 });
  const id = String(estimate._id);
  const link = await api.post(`/api/assessments/${id}/links`);
  expect(link.status).toBe(201);
  const path = new URL(link.json.url as string).pathname;

  // The customer, on the phone.
  await page.goto(path);
  expect(page.viewportSize()?.width).toBe(360);
  await page.getByText("Ask a question").click();
  await page.getByLabel("Your question").fill("Is the wing repaired or replaced?");
  await page.getByLabel("Your email for the answer (optional)").fill("jane.answers@example.com");
  await page.getByRole("button", { name: "Send question" }).click();
  await expect(page.getByRole("status")).toContainText("Your question was sent");
  await expect(page.getByTestId("your-question")).toContainText("Is the wing repaired or replaced?");
  await expect(page.getByTestId("no-answer-yet")).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await EstimateQuestion.countDocuments({ assessmentId: estimate._id })).toBe(1);

  // The dealer: the dashboard counts it, the estimate shows it, the form answers it.
  await page.goto("/");
  await expect(page.getByTestId("unanswered-count")).toHaveText("1");
  await page.goto(`/estimates?view=${id}`);
  const question = page.getByTestId("customer-question");
  await expect(question).toContainText("Is the wing repaired or replaced?");
  await expect(question).toContainText("Original");
  await question.getByLabel("Your answer").fill("Repaired: no new part needed.");
  await question.getByRole("button", { name: "Send answer" }).click();
  await expect(page.getByTestId("question-answer")).toContainText("Repaired: no new part needed.");
  await page.goto("/");
  await expect(page.getByTestId("unanswered-questions")).toHaveCount(0);

  // The customer's page shows the answer.
  await page.goto(path);
  await expect(page.getByTestId("answer")).toContainText("Repaired: no new part needed.");
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath("answered.png"), fullPage: true });
});
