import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { mkdirSync, writeFileSync } from "node:fs";
import { jpeg } from "../tests/media-files";
import { expect, test } from "./fixtures";
import { insertAssessment } from "./seed";

// WCAG 2.2 AA with axe-core on every screen and dialog, for each role, in every project (js, no-js,
// phone, phone-no-js) and once more in the dark theme: a violation of a WCAG A/AA rule fails the
// test; best-practice findings are attached to the report (and written to .tmp/a11y-*.json).

const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

type Finding = { page: string; rule: string; impact: string; nodes: number; example: string; wcag: boolean; colours?: string[] };

async function audit(page: Page, label: string, findings: Finding[]) {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags([...WCAG, "best-practice"]).analyze();
  for (const v of results.violations) {
    const colours = v.id.includes("contrast")
      ? [...new Set(v.nodes.map((n) => {
          const d = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
          return `${d?.fgColor} on ${d?.bgColor} ${d?.contrastRatio}: ${n.target.join(" ").slice(-80)}`;
        }))]
      : undefined;
    findings.push({
      page: label,
      rule: v.id,
      impact: v.impact ?? "",
      nodes: v.nodes.length,
      example: `${v.nodes[0]?.target.join(" ")}: ${v.nodes[0]?.failureSummary ?? ""}`.slice(0, 400),
      wcag: v.tags.some((tag) => WCAG.includes(tag)),
      colours,
    });
  }
}

/**
 * axe runs in the page, so without JavaScript it audits a copy: the same URL in a JavaScript-enabled
 * context of the same size and cookies, whose documents arrive with their scripts removed and their
 * <noscript> content unwrapped — what a browser without JavaScript shows.
 */
async function auditedPage(page: Page, browser: Browser): Promise<Page> {
  const use = test.info().project.use;
  if (use.javaScriptEnabled !== false) return page;
  const context = await browser.newContext({
    // Spelled out: a test's new contexts take the project's options (javaScriptEnabled: false) otherwise.
    javaScriptEnabled: true,
    viewport: use.viewport,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    deviceScaleFactor: use.deviceScaleFactor,
    colorScheme: use.colorScheme,
    baseURL: process.env.E2E_BASE_URL,
    storageState: await page.context().storageState(),
  });
  await context.route("**/*", async (route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch({ maxRedirects: 0 });
    const body = (await response.text())
      .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
      .replace(/<\/?noscript>/gi, "");
    const headers = { ...response.headers() };
    delete headers["content-encoding"];
    delete headers["content-length"];
    await route.fulfill({ response, body, headers });
  });
  return context.newPage();
}

/** Opens `path` as a user would find it (the dialog the URL names shown), then audits it. */
async function visit(page: Page, path: string, findings: Finding[], label = path) {
  await page.goto(path);
  const dialog = /[?&](dialog|edit|delete|view|log|upload)=/.test(path) && !path.startsWith("/admin-settings");
  if (dialog) await expect(page.getByRole("dialog")).toBeVisible();
  await audit(page, label, findings);
}

function report(findings: Finding[]) {
  const name = `${test.info().project.name}-${test.info().title.replace(/\W+/g, "-")}`;
  mkdirSync(".tmp", { recursive: true });
  writeFileSync(`.tmp/a11y-${name}.json`, JSON.stringify(findings, null, 2));
  const practice = findings.filter((f) => !f.wcag);
  if (practice.length > 0) {
    test.info().annotations.push({
      type: "best-practice",
      description: practice.map((f) => `${f.page}: ${f.rule} (${f.nodes})`).join("; "),
    });
  }
  const failing = findings.filter((f) => f.wcag).map((f) => `${f.page} — ${f.rule} [${f.impact}] ×${f.nodes}: ${f.example}`);
  expect(failing, "WCAG A/AA violations").toEqual([]);
}

const api = async (page: Page, method: "post" | "put", url: string, data: unknown) => {
  const res = await page.request[method](url, { data });
  if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
  return res.json();
};

/** One of everything a signed-in dealer or admin sees: a contact, a package, a template, a priced estimate and its email. */
async function seedAccount(page: Page, ownerId: string, vendorId: string) {
  const contact = await api(page, "post", "/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane@example.com", phone: "555-0100" });
  const pkg = await api(page, "post", "/api/packages", { name: "Premium Detail", price: 199.99, description: "Wash and wax" });
  const template = await api(page, "post", "/api/email-templates", {
    name: "Estimate ready",
    subject: "Your estimate for {{assessment.vehicle}}",
    htmlContent: "<p>Hi {{contact.firstName}}</p>",
  });
  const line = { damageType: "dent", severity: "moderate", location: "left", priced: true, baseCents: 10000, labour: { hours: 2, hoursFrom: "default", rateCents: 5000, cents: 10000 }, partsCents: 10000, modifiers: { make: 1, location: 1, seasonal: 1 }, markupPercentage: 0, minimumChargeCents: 0, minimumApplied: false, ruleCents: 30000, learning: { factor: 1, records: 0, cents: 0 }, totalCents: 30000 };
  const assessment = await insertAssessment({
    ownerId,
    contactId: contact.id,
    vendorId,
    title: "Silver Camry",
    vehicleYear: 2019,
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    status: "completed",
    severity: "moderate",
    estimatedCost: 300,
    aiEstimatedCost: 300,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 }],
    damageCategories: ["dent"],
    lineItems: [line],
    aiAnalysis: { confidence: 0.8, description: "A dent", provider: "embedded" },
  });
  const log = await api(page, "post", `/api/assessments/${assessment}/send-email`, { contactId: contact.id, templateId: template.id });
  // The upload wizard's details step: a photo in the draft.
  const upload = await page.request.post("/upload", { multipart: { files: { name: "door.jpg", mimeType: "image/jpeg", buffer: await jpeg() } } });
  expect(upload.ok()).toBe(true);
  return { contact: contact.id, pkg: pkg.id, template: template.id, assessment, log: log.id };
}

async function seedVendor(page: Page) {
  const rule = await api(page, "post", "/api/vendor-pricing-rules", { damageType: "dent", severity: "minor", basePrice: 100, laborRate: 80, vehicleMakeModifier: {}, locationModifier: {}, seasonalModifier: {}, notes: "Paintless repair" });
  const pkg = await api(page, "post", "/api/vendor-packages", { packageName: "Express dent repair", description: "Same-day", serviceTypes: ["dent"], pricingModel: "flat_rate", basePrice: 199 });
  return { rule: rule.id, pkg: pkg.id };
}

/** A signed-in account's screens and dialogs; on a phone one dialog of each screen. */
function accountScreens(ids: Awaited<ReturnType<typeof seedAccount>>, onPhone: boolean) {
  const screen = (path: string, ...dialogs: string[]) => [path, ...(onPhone ? dialogs.slice(0, 1) : dialogs)];
  return [
    ...screen("/", "/?upload=1"),
    ...screen("/upload", "/upload?step=details", `/upload?assessment=${ids.assessment}`),
    ...screen("/estimates", `/estimates?view=${ids.assessment}`, `/estimates?edit=${ids.assessment}`, `/estimates?delete=${ids.assessment}`),
    ...screen("/contacts", "/contacts?dialog=new", `/contacts?edit=${ids.contact}`, `/contacts?delete=${ids.contact}`),
    ...screen("/packages", "/packages?dialog=new", `/packages?edit=${ids.pkg}`, `/packages?delete=${ids.pkg}`),
    ...screen("/email", "/email?dialog=compose", "/email?dialog=new", `/email?edit=${ids.template}`, `/email?view=${ids.template}`, `/email?delete=${ids.template}`),
    ...screen("/email?tab=logs", `/email?tab=logs&log=${ids.log}`),
    ...screen("/settings", "/settings?tab=email", "/settings?tab=security", "/settings?tab=notifications", "/settings?tab=system"),
    "/no-such-page",
  ];
}

/**
 * The js project audits every dialog of every role; the others (no-js, phone, phone-no-js: the same
 * markup in another frame) the admin's screens with one dialog each, so the suite stays quick.
 */
const phone = () => test.info().project.name !== "js";

test("sign-in and set-up pages", async ({ page, browser }) => {
  const view = await auditedPage(page, browser);
  const findings: Finding[] = [];
  // The API's description (issue 42 item 8) is public, a page of its own.
  for (const path of ["/login", "/login?tab=dealer", "/login?tab=vendor", "/admin/login", "/admin/setup", "/api/docs"]) await visit(view, path, findings);
  // The server's answer to an empty form: the errors on the fields.
  await view.goto("/login");
  await view.getByRole("button", { name: "Sign In" }).click();
  await expect(view.locator("[aria-invalid=true]").first()).toBeVisible();
  await audit(view, "/login (errors)", findings);
  report(findings);
});

test("admin: every screen and dialog", async ({ page, browser, loginAs, createUser }) => {
  test.setTimeout(240_000);
  const vendor = await createUser("vendor");
  const admin = await loginAs("admin");
  const ids = await seedAccount(page, admin.id, vendor.id);
  const view = await auditedPage(page, browser);
  const findings: Finding[] = [];
  // On a phone the screens and one dialog of each kind (the shell and the dialogs' frame are what change).
  const dialogs = (paths: string[]) => (phone() ? paths.slice(0, 1) : paths);
  const paths = [
    ...accountScreens(ids, phone()),
    "/user-management",
    ...dialogs(["/user-management?dialog=new"]),
    "/ai-training",
    ...dialogs(["/ai-training?dialog=new"]),
    `/vendor-ai-training?vendor=${vendor.id}`,
    `/vendor-ai-training?vendor=${vendor.id}&tab=packages`,
    `/vendor-ai-training?vendor=${vendor.id}&tab=learning`,
    ...dialogs([`/vendor-ai-training?vendor=${vendor.id}&dialog=new`]),
    "/admin-settings",
    "/admin-settings?tab=users",
    `/admin-settings?tab=users&delete=${vendor.id}`,
    "/admin-settings?tab=ai-provider",
  ];
  for (const path of paths) await visit(view, path, findings);
  report(findings);
});

test("dealer: every screen and dialog", async ({ page, browser, loginAs, createUser }) => {
  test.skip(phone(), "the js project audits the dealer; the others the admin's screens, a superset");
  test.setTimeout(180_000);
  const vendor = await createUser("vendor");
  const dealer = await loginAs("dealer");
  const ids = await seedAccount(page, dealer.id, vendor.id);
  const view = await auditedPage(page, browser);
  const findings: Finding[] = [];
  for (const path of [...accountScreens(ids, false), `/vendor-ai-training?vendor=${vendor.id}`]) await visit(view, path, findings);
  report(findings);
});

test("vendor: the pricing screens and their dialogs", async ({ page, browser, loginAs }) => {
  test.skip(test.info().project.name.startsWith("phone"), "the phone projects audit the admin's screens");
  test.setTimeout(90_000);
  await loginAs("vendor");
  const ids = await seedVendor(page);
  const view = await auditedPage(page, browser);
  const findings: Finding[] = [];
  const paths = [
    "/",
    "/vendor-ai-training",
    "/vendor-ai-training?dialog=new",
    `/vendor-ai-training?edit=${ids.rule}`,
    `/vendor-ai-training?delete=${ids.rule}`,
    "/vendor-ai-training?tab=packages",
    "/vendor-ai-training?tab=packages&dialog=new",
    `/vendor-ai-training?tab=packages&edit=${ids.pkg}`,
    `/vendor-ai-training?tab=packages&delete=${ids.pkg}`,
    "/vendor-ai-training?tab=learning",
    "/settings",
  ];
  for (const path of phone() ? paths.slice(0, 3) : paths) await visit(view, path, findings);
  report(findings);
});

test("dark theme: every screen and dialog, and the sign-in pages under a dark browser", async ({ page, loginAs, createUser, browser }) => {
  test.skip(test.info().project.name !== "js", "one dark pass (the server renders the same colours with JavaScript off)");
  test.setTimeout(180_000);
  const findings: Finding[] = [];
  const dark = await browser.newPage({ colorScheme: "dark", baseURL: process.env.E2E_BASE_URL });
  for (const path of ["/login", "/admin/login", "/admin/setup"]) {
    await visit(dark, path, findings, `${path} (dark browser)`);
  }
  await dark.close();

  const vendor = await createUser("vendor");
  const admin = await loginAs("admin");
  await api(page, "put", "/api/auth/preferences", { theme: "dark" });
  const ids = await seedAccount(page, admin.id, vendor.id);
  const paths = [
    ...accountScreens(ids, false),
    "/user-management",
    "/user-management?dialog=new",
    "/ai-training",
    "/ai-training?dialog=new",
    `/vendor-ai-training?vendor=${vendor.id}`,
    `/vendor-ai-training?vendor=${vendor.id}&dialog=new`,
    "/admin-settings?tab=users",
  ];
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  for (const path of paths) await visit(page, path, findings);
  report(findings);
});
