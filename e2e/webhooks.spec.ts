import type { Locator, Page } from "@playwright/test";
import { WebhookDelivery, WebhookEndpoint, WebhookEvent } from "../app/models/webhook.server";
import { startReceiver, type TestReceiver } from "../tests/webhook-receiver";
import { expect, test } from "./fixtures";

// Settings → Security → Webhooks, JavaScript on and off: add an endpoint (its secret shown once),
// the outbound rule's refusal on the URL field, the delivery log after the app's worker delivered,
// Redeliver, rotate, turn off, delete. The suite's app allows loopback (e2e/global-setup.ts).

const noJs = () => test.info().project.name === "no-js";
let receiver: TestReceiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

async function expectToast(page: Page, message: string) {
  await expect(page.getByRole(noJs() ? "status" : "alert").filter({ hasText: message }).first()).toBeVisible();
}

/** An event already written and fanned out to the endpoint, as emitEvent leaves it. */
async function queueEvent(endpointId: string) {
  const endpoint = await WebhookEndpoint.findById(endpointId).lean();
  const event = await WebhookEvent.create({ ownerId: endpoint!.ownerId, type: "assessment.created", key: `e2e-${Date.now()}`, data: { title: "Blue Civic" }, at: new Date(), fannedOut: true });
  await WebhookDelivery.create({ ownerId: endpoint!.ownerId, endpointId, eventId: event._id, type: "assessment.created", eventAt: event.at, status: "pending", nextAttemptAt: new Date(), inFlight: false });
  return `msg_${String(event._id)}`;
}

test("add a webhook endpoint, read its delivery log, redeliver, rotate, turn off and delete it", async ({ page, loginAs }) => {
  await loginAs("dealer");
  const path = `/hook-${test.info().project.name}-${Date.now()}`;
  const url = receiver.url(path);
  await page.goto("/settings?tab=security");
  const card = page.locator("#webhooks");
  await expect(card.getByRole("heading", { name: "Webhooks" })).toBeVisible();

  // The server's rules, shown on their fields.
  await card.getByLabel("Endpoint URL").fill("http://169.254.169.254/latest/meta-data");
  await card.getByRole("checkbox", { name: "assessment.created" }).check();
  await card.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("169.254.169.254 is on a private or local network, which this server does not connect to")).toBeVisible();
  await page.locator("#webhooks").getByLabel("Endpoint URL").fill(url);
  await page.locator("#webhooks").getByRole("checkbox", { name: "assessment.created" }).uncheck();
  await page.locator("#webhooks").getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("Choose at least one event")).toBeVisible();

  await page.locator("#webhooks").getByLabel("Endpoint URL").fill(url);
  await page.locator("#webhooks").getByRole("checkbox", { name: "assessment.created" }).check();
  await page.locator("#webhooks").getByRole("checkbox", { name: "estimate.sent" }).check();
  await page.locator("#webhooks").getByRole("button", { name: "Add endpoint" }).click();
  const secret = page.getByTestId("webhook-secret");
  await expect(secret).toContainText("Copy it now: it will not be shown again.");
  await expect(secret.locator("pre, code").first()).toHaveText(/^whsec_[A-Za-z0-9+/=]{44}$/);
  const row = page.getByTestId("webhook-row").filter({ hasText: url });
  await expect(row).toContainText("assessment.created, estimate.sent");
  await expect(row.getByText("On", { exact: true })).toBeVisible();

  // The app's worker delivers; the log shows it.
  const endpoint = await WebhookEndpoint.findOne({ url }).lean();
  const webhookId = await queueEvent(String(endpoint!._id));
  await expect.poll(() => receiver.on(path).length, { timeout: 10_000 }).toBe(1);
  await row.getByRole("link", { name: `Delivery log of ${url}` }).click();
  const log = page.getByTestId("webhook-log");
  await expect(log).toContainText(`Deliveries to ${url} (1)`);
  await expect(log).toContainText(webhookId);
  await expect(log.getByText("delivered")).toBeVisible();
  await expect(log.getByRole("cell", { name: "200" })).toBeVisible();

  await log.getByRole("button", { name: `Redeliver assessment.created ${webhookId}` }).click();
  await expectToast(page, "The event will be sent to the endpoint again now.");
  await expect.poll(() => receiver.on(path).length, { timeout: 10_000 }).toBe(2);
  expect(receiver.on(path).map((r) => r.headers["webhook-id"])).toEqual([webhookId, webhookId]);

  await page.getByTestId("webhook-row").filter({ hasText: url }).getByRole("button", { name: `Rotate secret for ${url}` }).click();
  await expect(page.getByTestId("webhook-secret")).toContainText("The previous secret keeps signing beside it for 24 hours.");

  await page.getByTestId("webhook-row").filter({ hasText: url }).getByRole("button", { name: `Turn off ${url}` }).click();
  await expectToast(page, "Webhook endpoint turned off");
  await expect(page.getByTestId("webhook-row").filter({ hasText: url }).getByText("Off", { exact: true })).toBeVisible();

  await page.getByTestId("webhook-row").filter({ hasText: url }).getByRole("button", { name: `Delete ${url}` }).click();
  await expectToast(page, "Webhook endpoint deleted");
  await expect(page.getByTestId("webhook-row").filter({ hasText: url })).toHaveCount(0);
  expect(await WebhookEndpoint.countDocuments({ url })).toBe(0);
});

test("at 360 px an endpoint's row shows its URL, status and every action inside its card", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.setViewportSize({ width: 360, height: 740 });
  const url = "https://hooks.example.com/a-rather-long-path/for-the-dealership-management-system";
  expect((await page.request.post("/api/webhooks", { data: { url, events: ["estimate.sent"] } })).status()).toBe(201);
  await page.goto("/settings?tab=security");
  const row = page.getByTestId("webhook-row").filter({ hasText: "a-rather-long-path" });
  // Measured where the layout puts them (scrolling into view would scroll a clipped box sideways).
  const rect = (locator: Locator) => locator.evaluate((el) => el.getBoundingClientRect().toJSON() as { left: number; right: number });
  const card = await rect(page.locator("#webhooks"));
  expect(card.right).toBeLessThanOrEqual(360);
  for (const target of [row.getByText("On", { exact: true }), row.getByRole("button", { name: `Rotate secret for ${url}` }), row.getByRole("button", { name: `Delete ${url}` })]) {
    const box = await rect(target);
    expect(box.left >= card.left && box.right <= card.right, `${await target.textContent()} inside the card (${box.left}–${box.right} of ${card.left}–${card.right})`).toBe(true);
  }
  // A voice user says what they see: each button's name contains its visible label (WCAG 2.5.3).
  for (const button of await row.getByRole("button").all()) {
    const [label, name] = await button.evaluate((el) => [el.textContent?.trim() ?? "", el.getAttribute("aria-label") ?? ""]);
    if (name) expect(name.toLowerCase(), label).toContain(label.toLowerCase());
  }
});
