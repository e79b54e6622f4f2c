import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

// Issue 41 item 5 (docs/decisions/0054): an email whose delivery is unknown (the app stopped while
// handing it to the mail server) asks the dealer what to do, on the dashboard and in the Email
// Center's log: Resend (a new send) or Mark delivered. Plain forms, JavaScript on and off; the
// dashboard counts them until each is settled.

const noJs = () => test.info().project.name === "no-js";

async function expectToast(page: Page, title: string, message: string) {
  const toast = page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message }).first();
  await expect(toast).toBeVisible();
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
}

/** An estimate email recovery left unknown, as the outbox writes one. */
async function unknownEmail(ownerId: string, assessmentId: string, subject: string) {
  const _id = new mongoose.Types.ObjectId();
  const at = new Date(Date.now() - 60_000);
  await mongoose.connection.collection("emaillogs").insertOne({
    _id,
    ownerId: new mongoose.Types.ObjectId(ownerId),
    kind: "estimate",
    idempotencyKey: `e2e-${_id.toHexString()}`,
    recipientEmail: "jane.doe@example.com",
    subject,
    html: "<p>Your estimate</p>",
    text: "Your estimate",
    assessmentId: new mongoose.Types.ObjectId(assessmentId),
    assessmentTitle: "Silver Camry",
    status: "unknown",
    messageId: `<${_id.toHexString()}@example.com>`,
    attempts: [{ at, finishedAt: at, outcome: "unknown", error: "The worker stopped", workerId: "gone" }],
    lastError: "The worker stopped while handing the message to smtp: it may have been accepted, so it was not sent again",
    inFlight: false,
    localDrop: false,
    attachEstimate: false,
    createdAt: at,
    updatedAt: at,
  });
  return _id.toHexString();
}

test("an email of unknown delivery: resend it from the dashboard, mark another delivered in the log", async ({ page, loginAs }) => {
  const user = await loginAs("dealer");
  const assessmentId = await insertAssessment({ ownerId: user.id, title: "Silver Camry", status: "reviewed", estimatedCost: 425.5 });
  await unknownEmail(user.id, assessmentId, "Estimate for Jane (first)");
  await unknownEmail(user.id, assessmentId, "Estimate for Jane (second)");

  // The dashboard counts them and says what to do.
  await page.goto("/");
  const notice = page.getByTestId("unknown-emails");
  await expect(notice.getByRole("heading", { name: "Emails to check" })).toBeVisible();
  await expect(notice.getByTestId("unknown-emails-count")).toHaveText("2");
  await expect(notice.getByText("Ask the recipient, then resend it or mark it delivered.").first()).toBeVisible();
  await notice.getByRole("button", { name: "Resend: Estimate for Jane (first)" }).click();
  await expectToast(page, "Email Resent", "“Estimate for Jane (first)” was queued to be sent again.");
  await expect(page).toHaveURL(/\/$/);
  await expect(notice.getByTestId("unknown-emails-count")).toHaveText("1");

  // The Email Center's log: the resent one says so (and its new send is there), the other still asks.
  await page.goto("/email?tab=logs");
  await expect(page.getByRole("tab", { name: "Email Logs (3)" })).toBeVisible();
  const first = page.getByRole("listitem", { name: "Estimate for Jane (first)" });
  await expect(first.getByTestId("log-status").first()).toHaveText(/unknown \(resent\)|pending|saved \(local drop, not sent\)/);
  await expect(page.getByTestId("log-status").filter({ hasText: "unknown (resent)" })).toHaveCount(1);
  const second = page.getByRole("listitem", { name: "Estimate for Jane (second)" });
  await expect(second.getByTestId("unknown-email-actions")).toBeVisible();
  await second.getByRole("button", { name: "Mark delivered: Estimate for Jane (second)" }).click();
  await expectToast(page, "Email Marked Delivered", "“Estimate for Jane (second)” is recorded as delivered.");
  // Back on the Logs tab, the email sent and confirmed; nothing left to settle.
  await expect(page).toHaveURL(/tab=logs/);
  const settled = page.getByRole("listitem", { name: "Estimate for Jane (second)" });
  await expect(settled.getByTestId("log-status")).toHaveText("sent");
  await expect(settled.getByText("Marked delivered by you.")).toBeVisible();
  await expect(page.getByTestId("unknown-email-actions")).toHaveCount(0);

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByTestId("unknown-emails")).toHaveCount(0);
});
