import type { Locator, Page } from "@playwright/test";
import mongoose from "mongoose";
import { expect, test } from "./fixtures";

// Runs twice: JavaScript on (Mantine modal, client validation, notifications) and off (dialogs are
// URLs rendered by the server, forms post, toasts are an inline banner). Same steps, same strings.

const stat = (page: Page, label: string) => page.getByRole("group", { name: label }).getByTestId("stat-value");
const card = (page: Page, name: string) => page.getByRole("listitem", { name });
const dialog = (page: Page) => page.getByRole("dialog");

/** The flashed outcome: a notification with JavaScript, the inline banner without. */
async function expectToast(page: Page, title: string, message: string) {
  // A replaced notification may still be fading out: look for this one by its message.
  const toast = page.getByRole(test.info().project.name === "no-js" ? "status" : "alert").filter({ hasText: message });
  await expect(toast).toBeVisible();
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
}

async function fill(scope: Locator, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await scope.getByLabel(label).fill(value);
}

/** Fails the test on any browser console error or uncaught exception (hydration mismatches too). */
function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // Expected: the 422 page of a refused form post (JavaScript off), the missing /favicon.ico.
    if (/status of 422/.test(m.text()) || m.location().url.endsWith("/favicon.ico")) return;
    problems.push(`${m.text()} ${m.location().url}`);
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return () => expect(problems).toEqual([]);
}

test("create, search, edit and delete contacts; the summary cards follow", async ({ page, loginAs }) => {
  const noConsoleErrors = watchConsole(page);
  await loginAs("dealer");
  await page.goto("/contacts");
  await expect(page.getByRole("heading", { name: "Contacts", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No Contacts Found" })).toBeVisible();
  await expect(stat(page, "Total Contacts")).toHaveText("0");

  // Add Contact: the spec's messages for an empty form, then a complete one.
  await page.getByRole("link", { name: "Add Contact" }).first().click();
  await expect(dialog(page).getByText("Add Contact")).toBeVisible();
  await dialog(page).getByRole("button", { name: "Create Contact" }).click();
  await expect(dialog(page).getByText("First name is required")).toBeVisible();
  await expect(dialog(page).getByText("Last name is required")).toBeVisible();
  await expect(dialog(page).getByText("Invalid email address")).toBeVisible();

  const notes = "Prefers a call in the morning. ".repeat(5).trim();
  await fill(dialog(page), {
    "First Name": "Jane",
    "Last Name": "Doe",
    Email: "not-an-email",
    Phone: "+1 (555) 010-0100",
    Company: "Acme Motors",
    Address: "1 Main Street, Springfield",
    Notes: notes,
  });
  await dialog(page).getByRole("button", { name: "Create Contact" }).click();
  await expect(dialog(page).getByText("Invalid email address")).toBeVisible();
  // What was typed is still there.
  await expect(dialog(page).getByLabel("Company")).toHaveValue("Acme Motors");
  await dialog(page).getByLabel("Email").fill("jane@acme.example");
  await dialog(page).getByRole("button", { name: "Create Contact" }).click();
  await expectToast(page, "Contact Created", "Jane Doe has been added to your contacts.");
  await expect(dialog(page)).toHaveCount(0);

  const jane = card(page, "Jane Doe");
  await expect(jane).toBeVisible();
  await expect(jane.getByText("JD", { exact: true })).toBeVisible();
  await expect(jane.getByText("Acme Motors")).toBeVisible();
  await expect(jane.getByRole("link", { name: "jane@acme.example" })).toHaveAttribute("href", "mailto:jane@acme.example");
  await expect(jane.getByRole("link", { name: "+1 (555) 010-0100" })).toHaveAttribute("href", "tel:+15550100100");
  await expect(jane.getByText("1 Main Street, Springfield")).toBeVisible();
  await expect(jane.getByTestId("contact-notes")).toHaveText(`${notes.slice(0, 100)}...`);
  await expect(jane.getByText(/^Added [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
  await expect(stat(page, "Total Contacts")).toHaveText("1");
  await expect(stat(page, "With Companies")).toHaveText("1");
  await expect(stat(page, "With Phone")).toHaveText("1");

  // A second contact without company or phone.
  await page.getByRole("link", { name: "Add Contact" }).first().click();
  await fill(dialog(page), { "First Name": "Bob", "Last Name": "Baker", Email: "bob@baker.example" });
  await dialog(page).getByRole("button", { name: "Create Contact" }).click();
  await expectToast(page, "Contact Created", "Bob Baker has been added to your contacts.");
  await expect(card(page, "Bob Baker")).toBeVisible();
  await expect(stat(page, "Total Contacts")).toHaveText("2");
  await expect(stat(page, "With Companies")).toHaveText("1");
  await expect(stat(page, "With Phone")).toHaveText("1");

  // Search (server-side, ?q=): company, case-insensitive; then no match.
  const search = page.getByRole("searchbox", { name: "Search contacts" });
  await search.fill("ACME");
  await search.press("Enter");
  await expect(page).toHaveURL(/[?&]q=ACME/);
  await expect(card(page, "Jane Doe")).toBeVisible();
  await expect(card(page, "Bob Baker")).toHaveCount(0);
  await search.fill("nobody-here");
  await search.press("Enter");
  await expect(page.getByRole("heading", { name: "No Contacts Found" })).toBeVisible();
  await expect(page.getByText("No contacts match your search.")).toBeVisible();
  await search.fill("baker");
  await search.press("Enter");
  await expect(card(page, "Bob Baker")).toBeVisible();
  await expect(card(page, "Jane Doe")).toHaveCount(0);

  // Edit from the search results: the dialog comes filled in; the search stays after saving.
  await card(page, "Bob Baker").getByRole("link", { name: "Edit Bob Baker" }).click();
  await expect(dialog(page).getByText("Edit Contact")).toBeVisible();
  await expect(dialog(page).getByLabel("Email")).toHaveValue("bob@baker.example");
  await dialog(page).getByLabel("Last Name").fill("");
  await dialog(page).getByRole("button", { name: "Update Contact" }).click();
  await expect(dialog(page).getByText("Last name is required")).toBeVisible();
  await fill(dialog(page), { "Last Name": "Baker-Smith", Company: "Baker & Sons", Phone: "555 2222" });
  await dialog(page).getByRole("button", { name: "Update Contact" }).click();
  await expectToast(page, "Contact Updated", "Bob Baker-Smith has been updated.");
  await expect(page).toHaveURL(/[?&]q=baker/);
  const bob = card(page, "Bob Baker-Smith");
  await expect(bob.getByText("Baker & Sons")).toBeVisible();
  await expect(stat(page, "With Companies")).toHaveText("2");
  await expect(stat(page, "With Phone")).toHaveText("2");

  // Delete asks first (its own URL); Cancel keeps the contact.
  await bob.getByRole("link", { name: "Delete Bob Baker-Smith" }).click();
  await expect(dialog(page).getByText("Are you sure you want to delete Bob Baker-Smith?")).toBeVisible();
  await dialog(page).getByRole("link", { name: "Cancel" }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(card(page, "Bob Baker-Smith")).toBeVisible();
  await card(page, "Bob Baker-Smith").getByRole("link", { name: "Delete Bob Baker-Smith" }).click();
  await dialog(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Contact Deleted", "Bob Baker-Smith has been deleted.");
  await expect(card(page, "Bob Baker-Smith")).toHaveCount(0);
  await expect(stat(page, "Total Contacts")).toHaveText("1");
  await expect(stat(page, "With Companies")).toHaveText("1");
  await expect(stat(page, "With Phone")).toHaveText("1");
  noConsoleErrors();
});

test("dialogs are addressable by URL and another account's contact is not found", async ({ page, loginAs, browser }) => {
  await loginAs("dealer");
  await page.goto("/contacts?dialog=new");
  await expect(dialog(page).getByText("Add Contact")).toBeVisible();
  await fill(dialog(page), { "First Name": "Ann", "Last Name": "Owner", Email: "ann@example.com" });
  await dialog(page).getByRole("button", { name: "Create Contact" }).click();
  await expectToast(page, "Contact Created", "Ann Owner has been added to your contacts.");
  const editHref = await card(page, "Ann Owner").getByRole("link", { name: "Edit Ann Owner" }).getAttribute("href");
  const id = new URLSearchParams(editHref!.split("?")[1]).get("edit")!;

  // Opened directly, the edit dialog is filled in by the server.
  await page.goto(`/contacts?edit=${id}`);
  await expect(dialog(page).getByLabel("First Name")).toHaveValue("Ann");

  // Another dealer sees neither the contact nor its dialog.
  const other = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    javaScriptEnabled: test.info().project.name !== "no-js",
  });
  const otherPage = await other.newPage();
  const { createTestUser } = await import("../tests/accounts");
  const b = await createTestUser({ role: "dealer" });
  await otherPage.request.post("/api/admin/login", { data: { username: b.username, password: b.password } });
  await otherPage.goto(`/contacts?edit=${id}`);
  await expect(otherPage.getByText("Contact not found.")).toBeVisible();
  await expect(otherPage.getByText("Ann")).toHaveCount(0);
  await otherPage.goto(`/contacts?delete=${id}`);
  await expect(otherPage.getByText("Contact not found.")).toBeVisible();
  // Posting the forms anyway changes nothing: the failure toasts, and A's contact stays as it was.
  const update = await otherPage.request.post("/contacts", {
    form: { intent: "update", id, firstName: "Hacked", lastName: "Owner", email: "x@example.com" },
  });
  expect(update.url()).toMatch(/\/contacts$/);
  expect(await update.text()).toContain("Failed to update contact");
  const del = await otherPage.request.post("/contacts", { form: { intent: "delete", id } });
  expect(await del.text()).toContain("Failed to delete contact");
  await other.close();

  await page.goto("/contacts");
  await expect(card(page, "Ann Owner")).toBeVisible();
});

test("a long list is paged by links; the search and the summary cover every contact", async ({ page, loginAs }) => {
  const user = await loginAs("dealer");
  const now = Date.now();
  await mongoose.connection.collection("contacts").insertMany(
    Array.from({ length: 30 }, (_, i) => ({
      ownerId: new mongoose.Types.ObjectId(user.id),
      firstName: `Person${String(i).padStart(2, "0")}`,
      lastName: i % 2 ? "Odd" : "Even",
      email: `p${i}@example.com`,
      ...(i < 10 ? { companyName: "Tenfold" } : {}),
      createdAt: new Date(now - i * 1000),
      updatedAt: new Date(now - i * 1000),
    })),
  );
  await page.goto("/contacts");
  await expect(stat(page, "Total Contacts")).toHaveText("30");
  await expect(stat(page, "With Companies")).toHaveText("10");
  await expect(page.getByTestId("contact-card")).toHaveCount(24);
  await expect(page.getByText("Showing 24 of 30 contacts")).toBeVisible();
  await expect(card(page, "Person00 Even")).toBeVisible();
  // Paged by cursor (docs/decisions/0036): Older, then Newer back to the top.
  await page.getByRole("link", { name: "Older" }).click();
  await expect(page).toHaveURL(/[?&]cursor=/);
  await expect(page.getByTestId("contact-card")).toHaveCount(6);
  await expect(card(page, "Person29 Odd")).toBeVisible();
  await expect(page.getByText("Showing 6 of 30 contacts")).toBeVisible();
  await page.getByRole("link", { name: "Newer" }).click();
  await expect(card(page, "Person00 Even")).toBeVisible();

  // A search starts again at its first page; the summary still counts everything.
  const search = page.getByRole("searchbox", { name: "Search contacts" });
  await search.fill("odd");
  await search.press("Enter");
  await expect(page.getByTestId("contact-card")).toHaveCount(15);
  await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
  await expect(stat(page, "Total Contacts")).toHaveText("30");
});
