import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// Runs with JavaScript on and off (see contacts.spec.ts).

const stat = (page: Page, label: string) => page.getByRole("group", { name: label }).getByTestId("stat-value");
const card = (page: Page, name: string) => page.getByRole("listitem", { name, exact: true });
const dialog = (page: Page) => page.getByRole("dialog");

/** The flashed outcome: a notification with JavaScript, the inline banner without. */
async function expectToast(page: Page, title: string, message: string) {
  // A replaced notification may still be fading out: look for this one by its message.
  const toast = page.getByRole(test.info().project.name === "no-js" ? "status" : "alert").filter({ hasText: message });
  await expect(toast).toBeVisible();
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
}

async function fill(scope: Locator, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await scope.getByLabel(label, { exact: false }).fill(value);
}

async function expectStats(page: Page, total: string, active: string, average: string, highest: string) {
  await expect(stat(page, "Total")).toHaveText(total);
  await expect(stat(page, "Active")).toHaveText(active);
  await expect(stat(page, "Average Price")).toHaveText(average);
  await expect(stat(page, "Highest Price")).toHaveText(highest);
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

test("create, search, edit and delete packages; the stat cards follow", async ({ page, loginAs }) => {
  const noConsoleErrors = watchConsole(page);
  await loginAs("vendor");
  await page.goto("/packages");
  await expect(page.getByRole("heading", { name: "Packages", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No Packages Found" })).toBeVisible();
  await expectStats(page, "0", "0", "$0", "$0");

  // The spec's messages, then a premium package with six features typed one per line.
  await page.getByRole("link", { name: "Add Package" }).first().click();
  await expect(dialog(page).getByText("Add Package")).toBeVisible();
  await expect(dialog(page).getByLabel("Active")).toBeChecked();
  await dialog(page).getByRole("button", { name: "Create Package" }).click();
  await expect(dialog(page).getByText("Package name is required")).toBeVisible();
  await expect(dialog(page).getByText("Price must be a positive number")).toBeVisible();

  await fill(dialog(page), {
    "Package Name": "Premium Detail",
    Description: "Full interior and exterior detail.",
    "Price (USD)": "-5",
    Features: "  Hand wash \n\nClay bar\nWax\n   \nInterior shampoo\nTyre shine\nGlass treatment\n",
  });
  await dialog(page).getByRole("button", { name: "Create Package" }).click();
  await expect(dialog(page).getByText("Price must be a positive number")).toBeVisible();
  await expect(dialog(page).getByLabel("Package Name")).toHaveValue("Premium Detail");
  await fill(dialog(page), { "Price (USD)": "249.99" });
  await dialog(page).getByRole("button", { name: "Create Package" }).click();
  await expectToast(page, "Package Created", "Premium Detail has been created.");
  await expect(dialog(page)).toHaveCount(0);

  const premium = card(page, "Premium Detail");
  await expect(premium).toHaveAttribute("data-tier", "premium");
  await expect(premium.getByTestId("package-price")).toHaveText("$250");
  await expect(premium.getByText("Active", { exact: true })).toBeVisible();
  await expect(premium.getByText("Full interior and exterior detail.")).toBeVisible();
  await expect(premium.getByRole("listitem")).toHaveText(["Hand wash", "Clay bar", "Wax", "Interior shampoo"]);
  await expect(premium.getByText("+2 more features")).toBeVisible();
  await expect(premium.getByText(/^Created [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
  await expectStats(page, "1", "1", "$250", "$250");

  // An inactive basic package.
  await page.getByRole("link", { name: "Add Package" }).first().click();
  await fill(dialog(page), { "Package Name": "Basic Wash", "Price (USD)": "50" });
  await dialog(page).getByLabel("Active").uncheck({ force: true });
  await dialog(page).getByRole("button", { name: "Create Package" }).click();
  await expectToast(page, "Package Created", "Basic Wash has been created.");
  const basic = card(page, "Basic Wash");
  await expect(basic).toHaveAttribute("data-tier", "standard");
  await expect(basic.getByText("Inactive", { exact: true })).toBeVisible();
  await expect(basic.getByTestId("package-price")).toHaveText("$50");
  await expectStats(page, "2", "1", "$150", "$250");

  // Search name and description, server-side.
  const search = page.getByRole("searchbox", { name: "Search packages" });
  await search.fill("interior");
  await search.press("Enter");
  await expect(page).toHaveURL(/[?&]q=interior/);
  await expect(card(page, "Premium Detail")).toBeVisible();
  await expect(card(page, "Basic Wash")).toHaveCount(0);
  await search.fill("zzz");
  await search.press("Enter");
  await expect(page.getByRole("heading", { name: "No Packages Found" })).toBeVisible();
  await search.fill("");
  await search.press("Enter");
  await expect(card(page, "Basic Wash")).toBeVisible();

  // Edit: the dialog comes filled in (features one per line); rename, reprice, activate.
  await card(page, "Basic Wash").getByRole("link", { name: "Edit Basic Wash" }).click();
  await expect(dialog(page).getByText("Edit Package")).toBeVisible();
  await expect(dialog(page).getByLabel("Price (USD)")).toHaveValue("50");
  await expect(dialog(page).getByLabel("Active")).not.toBeChecked();
  await fill(dialog(page), { "Package Name": "Fleet Service", "Price (USD)": "1000", Features: "Pickup\nDelivery" });
  await dialog(page).getByLabel("Active").check({ force: true });
  await dialog(page).getByRole("button", { name: "Update Package" }).click();
  await expectToast(page, "Package Updated", "Fleet Service has been updated.");
  const fleet = card(page, "Fleet Service");
  await expect(fleet).toHaveAttribute("data-tier", "other");
  await expect(fleet.getByTestId("package-price")).toHaveText("$1,000");
  await expect(fleet.getByRole("listitem")).toHaveText(["Pickup", "Delivery"]);
  await expect(fleet.getByText(/more features/)).toHaveCount(0);
  await expectStats(page, "2", "2", "$625", "$1,000");

  // Delete after confirming.
  await fleet.getByRole("link", { name: "Delete Fleet Service" }).click();
  await expect(dialog(page).getByText('Are you sure you want to delete the package "Fleet Service"?')).toBeVisible();
  await dialog(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Package Deleted", "Fleet Service has been deleted.");
  await expect(card(page, "Fleet Service")).toHaveCount(0);
  await expectStats(page, "1", "1", "$250", "$250");
  noConsoleErrors();
});
