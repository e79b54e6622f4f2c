import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import mongoose from "mongoose";
import { client, tokenFor } from "../tests/accounts";
import type { RunningApp } from "../tests/app-server";
import { expect, signInPage, test } from "./fixtures";
import { insertAssessment } from "./seed";

// Runs twice (JavaScript on and off): every screen of every role, in Spanish and in French, must
// show no English. A new screen joins by a line in SCREENS.

type Role = "anonymous" | "admin" | "dealer" | "vendor";
type Language = "es" | "fr";

/** Every screen and its tabs and dialogs, and the roles that reach it ({id}: the seeded estimate). */
const SCREENS: { path: string; roles: readonly Role[] }[] = [
  // Signed out: the language of the browser (Accept-Language).
  { path: "/login", roles: ["anonymous"] },
  { path: "/login?tab=dealer", roles: ["anonymous"] },
  { path: "/admin/login", roles: ["anonymous"] },
  { path: "/admin/setup", roles: ["anonymous"] },
  { path: "/", roles: ["admin", "dealer", "vendor"] },
  { path: "/upload", roles: ["admin", "dealer", "vendor"] },
  { path: "/estimates", roles: ["admin", "dealer", "vendor"] },
  { path: "/estimates?view={id}", roles: ["dealer"] },
  { path: "/estimates?edit={id}", roles: ["dealer"] },
  { path: "/estimates?delete={id}", roles: ["dealer"] },
  { path: "/contacts", roles: ["admin", "dealer", "vendor"] },
  { path: "/contacts?dialog=new", roles: ["dealer"] },
  { path: "/packages", roles: ["admin", "dealer", "vendor"] },
  { path: "/packages?dialog=new", roles: ["dealer"] },
  { path: "/email", roles: ["admin", "dealer", "vendor"] },
  { path: "/email?tab=logs", roles: ["dealer"] },
  { path: "/email?dialog=new", roles: ["dealer"] },
  { path: "/email?dialog=compose", roles: ["dealer"] },
  { path: "/settings?tab=profile", roles: ["admin", "dealer", "vendor"] },
  { path: "/settings?tab=email", roles: ["dealer"] },
  { path: "/settings?tab=security", roles: ["admin", "dealer", "vendor"] },
  { path: "/settings?tab=notifications", roles: ["dealer"] },
  { path: "/settings?tab=system", roles: ["admin", "dealer", "vendor"] },
  { path: "/user-management", roles: ["admin"] },
  { path: "/user-management?dialog=new", roles: ["admin"] },
  { path: "/ai-training", roles: ["admin"] },
  { path: "/ai-training?dialog=new", roles: ["admin"] },
  { path: "/vendor-ai-training", roles: ["admin", "vendor"] },
  { path: "/vendor-ai-training?dialog=new", roles: ["vendor"] },
  { path: "/vendor-ai-training?tab=packages", roles: ["vendor"] },
  { path: "/vendor-ai-training?tab=learning", roles: ["vendor"] },
  { path: "/admin-settings?tab=credentials", roles: ["admin"] },
  { path: "/admin-settings?tab=users", roles: ["admin"] },
  { path: "/admin-settings?tab=ai-provider", roles: ["admin"] },
  { path: "/no-such-page", roles: ["dealer"] },
];

/**
 * What may stay as it is on a Spanish or French page (compared word by word, case-insensitive):
 * product and brand names, protocol and format names, and the technical terms the spec leaves
 * untranslated (VIN, PDF, API, SMTP…). Names and data the test creates are added per run.
 */
const ALLOWED = [
  "DamageIQ", "OpenAI", "Google", "Authenticator", "1Password", "Authy",
  "VIN", "PDF", "API", "JSON", "SMTP", "TLS", "HTML", "URL", "USD", "ndjson", "tar", "gz", "QR", "DMS", "IA", "IQ",
  // HTTP header and environment names shown as code.
  "Authorization", "Bearer", "token", "Message", "ID", "SESSION_SECRET", "OPENAI",
  // The language picker names each language in itself.
  "English",
];

/** Webhook event and header names: API identifiers the receiving systems match on, shown as they are sent. */
const IDENTIFIERS = /\b(?:webhook-(?:id|timestamp|signature)|assessment\.(?:created|completed|failed)|estimate\.(?:sent|updated|approved|declined|question_asked|question_answered)|email\.(?:delivered|failed))\b/g;

const load = (lng: string) => JSON.parse(readFileSync(`app/locales/${lng}.json`, "utf8")) as Record<string, string>;
const words = (text: string) => text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? [];

/**
 * English words: the catalogue's English vocabulary and the commonest English words (so a new,
 * uncatalogued sentence is caught too), less the words the translation itself uses ("total",
 * "local", "page"…).
 */
function englishWords(lng: Language) {
  const en = load("en");
  const translated = new Set(Object.values(load(lng)).flatMap(words));
  const common = "the and of to in is it you your for with this that are was be has have not from by at will can all new add edit delete save cancel create update search found show view send please failed successfully yet no none".split(" ");
  const vocabulary = new Set([...Object.keys(en).flatMap((key) => words(key.replace(/\{\{\w+\}\}/g, ""))), ...common]);
  const allowed = new Set(ALLOWED.flatMap(words));
  return new Set([...vocabulary].filter((w) => w.length > 1 && !translated.has(w) && !allowed.has(w)));
}

/** Every text the page shows: text nodes, placeholders, titles, the options of selects, and the document title. */
async function shownTexts(page: Page) {
  return page.evaluate(() => {
    const texts: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, noscript, template")) continue;
      texts.push(node.textContent ?? "");
    }
    for (const el of document.querySelectorAll("[placeholder], [title]")) {
      texts.push(el.getAttribute("placeholder") ?? "", el.getAttribute("title") ?? "");
    }
    return texts.map((t) => t.trim()).filter(Boolean);
  });
}

/** Text as compared with stored values: tags (and style/script blocks) out, entities decoded, spaces collapsed, lower case. */
const normal = (text: string) =>
  text
    .replace(/<(style|script)\b[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

/**
 * Every text the database holds (names joined as the cards show them), longest first; identifiers
 * (lower-case words such as a status) are left out, so a status shown untranslated is still caught.
 */
async function storedTexts() {
  const texts = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === "string") {
      if (value.length >= 3 && !/^[a-z0-9_.:/-]+$/.test(value)) texts.add(normal(value));
    } else if (Array.isArray(value)) value.forEach(add);
    else if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      const record = value as Record<string, unknown>;
      if (typeof record.firstName === "string" && typeof record.lastName === "string") add(`${record.firstName} ${record.lastName}`);
      Object.values(record).forEach(add);
    }
  };
  for (const { name } of await mongoose.connection.db!.listCollections().toArray()) {
    add(await mongoose.connection.collection(name).find().toArray());
  }
  return [...texts].filter(Boolean).sort((a, b) => b.length - a.length);
}

/**
 * A text with every stored value in it taken out, whole words only ("Even", a surname, leaves "evento"
 * alone); a truncated one ending in "..." counts as its value.
 */
function withoutStored(text: string, stored: string[]) {
  let rest = normal(text);
  const cut = rest.replace(/(?:\.\.\.|…)$/, "");
  if (cut.length >= 12 && stored.some((value) => value.startsWith(cut))) return "";
  for (const value of stored) {
    if (!rest.includes(value)) continue;
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    rest = rest.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "gu"), " ");
  }
  return rest;
}

function seed(dealerId: string, vendorId: string) {
  return insertAssessment({
    ownerId: dealerId,
    vendorId,
    title: "Zafiro",
    vehicleYear: 2019,
    vehicleMake: "Seat",
    vehicleModel: "Leon",
    status: "completed",
    severity: "moderate",
    estimatedCost: 300,
    damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Zafiro", confidence: 0.8 }],
    damageCategories: ["dent"],
    // Lines of every kind (labour, paint materials, a part, sublet), taxes and a deductible: the detail's lines and totals.
    estimateSheet: {
      lines: [
        { id: "l1", damage: 0, operation: "refinish", description: "", labour: { category: "refinish", hours: 2, rateCents: 5000 }, part: null, amountCents: 0, note: "" },
        { id: "l2", damage: 0, operation: "replace", description: "", labour: null, part: { type: "oem", number: "67001", description: "Zafiro", quantity: 1, unitPriceCents: 10000 }, amountCents: 0, note: "" },
        { id: "l3", damage: null, operation: "sublet", description: "", labour: null, part: null, amountCents: 5000, note: "" },
        { id: "l4", damage: null, operation: "repair", description: "", labour: null, part: null, amountCents: 2000, note: "" },
      ],
      rates: { body: 5000, refinish: 5000, mechanical: 5000, frame: 5000 },
      materialsRateCents: 3500,
      taxRates: { parts: 8, labour: 5, materials: 8 },
      deductibleCents: 10000,
      language: null,
      mileage: null,
    },
  });
}

for (const lng of ["es", "fr"] as const) {
  test(`every screen of every role shows no English in ${lng}`, async ({ page: signedIn, browser, baseURL, createUser }) => {
    test.setTimeout(180_000);
    const english = englishWords(lng);
    const users = { admin: await createUser("admin"), dealer: await createUser("dealer"), vendor: await createUser("vendor") };
    const id = await seed(users.dealer.id, users.vendor.id);
    // Data: the accounts' names (every account in the database: the admin's lists show earlier tests' too,
    // whose random usernames can hold a word such as "do") and the seeded records.
    const accounts = await mongoose.connection.collection("users").find().toArray();
    const data = new Set([
      ...accounts.flatMap((user) => words(`${user.username} ${user.firstName} ${user.lastName} ${user.email} ${user.companyName ?? ""}`)),
      // Avatars show the initials.
      ...accounts.map((user) => `${String(user.firstName ?? "")[0] ?? ""}${String(user.lastName ?? "")[0] ?? ""}`.toLowerCase()),
      ...words("Zafiro Seat Leon Marta Ruiz marta example com Lavado"),
    ]);
    // The admin's lists show every account's records, earlier tests' English titles, names and templates
    // too: on the admin's pages what the database holds is data and is taken out of a text before its
    // words are checked (the dealer's and vendor's walks see only this test's records and stay strict).
    const stored = await storedTexts();

    const found: string[] = [];
    // A signed-out visitor gets the browser's language.
    const anonymous = await browser.newContext({ baseURL, locale: lng, javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    for (const role of ["anonymous", "admin", "dealer", "vendor"] as const) {
      const page = role === "anonymous" ? await anonymous.newPage() : signedIn;
      if (role !== "anonymous") {
        await page.context().clearCookies();
        await signInPage(page, users[role].username, users[role].password);
        expect((await page.request.put("/api/auth/preferences", { data: { language: lng } })).status()).toBe(200);
      }
      if (role === "dealer") {
        await page.request.post("/api/contacts", { data: { firstName: "Marta", lastName: "Ruiz", email: "marta@example.com" } });
        await page.request.post("/api/packages", { data: { name: "Lavado", price: 20, features: ["Lavado"] } });
      }
      for (const screen of SCREENS.filter((s) => s.roles.includes(role))) {
        const path = screen.path.replace("{id}", id);
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("lang", lng);
        for (const text of await shownTexts(page)) {
          // An email template's {{variables}} are its language, not ours.
          const own = role === "admin" ? withoutStored(text, stored) : text;
          const bad = words(own.replace(/\{\{[\w.]+\}\}/g, "").replace(IDENTIFIERS, "")).filter((w) => english.has(w) && !data.has(w));
          if (bad.length > 0) found.push(`${role} ${path}: "${text}" (${bad.join(", ")})`);
        }
      }
    }
    await anonymous.close();
    expect([...new Set(found)], "English on a non-English page").toEqual([]);
  });
}

test("a form's validation messages and its toast are in the account's language", async ({ page, loginAs }) => {
  await loginAs("dealer");
  expect((await page.request.put("/api/auth/preferences", { data: { language: "es" } })).status()).toBe(200);
  await page.goto("/contacts");
  await page.getByRole("link", { name: "Añadir contacto" }).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("textbox", { name: "Nombre", exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Crear contacto" }).click();
  // The schema's English messages (the spec's, for English) shown in Spanish, with JavaScript on and off.
  await expect(dialog.getByText("El nombre es obligatorio")).toBeVisible();
  await expect(dialog.getByText("Dirección de correo no válida")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Nombre", exact: true }).fill("Marta");
  await dialog.getByRole("textbox", { name: "Apellidos", exact: true }).fill("Ruiz");
  await dialog.getByRole("textbox", { name: "Correo", exact: true }).fill("marta@example.com");
  await dialog.getByRole("button", { name: "Crear contacto" }).click();
  // The toast says both its title and its message in Spanish (a notification, or the banner without JavaScript).
  const toast = page.getByRole(test.info().project.name === "no-js" ? "status" : "alert").filter({ hasText: "Marta Ruiz se ha añadido a sus contactos." });
  await expect(toast).toBeVisible();
  await expect(toast.getByText("Contacto creado", { exact: true })).toBeVisible();
});

test("dates and money on the screens follow the account's language, as the PDF's dates do (server and browser alike)", async ({ page, loginAs }) => {
  const user = await loginAs("dealer");
  const mismatches: string[] = [];
  page.on("console", (message) => {
    if (/hydrat|did not match|Minified React error #(418|423|425)/i.test(message.text())) mismatches.push(message.text());
  });
  await insertAssessment({ ownerId: user.id, title: "Formats Civic", status: "completed", estimatedCost: 1250.5, createdAt: new Date("2026-11-27T12:00:00Z") });
  const card = () => page.getByTestId("estimate-card").filter({ hasText: "Formats Civic" });
  for (const [language, date, money] of [
    ["es", "27 nov 2026", /^\$1,250\.50$/],
    ["fr", "27 nov. 2026", /^1\s250,50\s\$\sUS$/],
    ["en", "Nov 27, 2026", /^\$1,250\.50$/],
  ] as const) {
    expect((await page.request.put("/api/auth/preferences", { data: { language } })).status()).toBe(200);
    await page.goto("/estimates");
    await expect(card().getByTestId("estimate-cost")).toHaveText(money);
    await expect(card()).toContainText(date);
    await expect(card()).not.toContainText(language === "en" ? "27 nov" : "Nov 27, 2026");
  }
  expect(mismatches).toEqual([]);
});

/** How each language writes 27 Nov 2026 and 1234 of 5000 (es-US and fr-CA, as the PDF: US dollars in each). */
const LOCAL = {
  es: { date: "27 nov 2026", progress: "1,234 de 5,000 registros procesados" },
  fr: { date: "27 nov. 2026", progress: /1\s234 enregistrements traités sur 5\s000/ },
} as const;

for (const lng of ["es", "fr"] as const) {
  test(`settings, users, imports and the customer's page show dates and figures the ${lng} way, server and browser alike`, async ({ page, browser, baseURL, createUser }) => {
    test.setTimeout(120_000);
    const { date, progress } = LOCAL[lng];
    const day = new Date("2026-11-27T12:00:00Z");
    const { ObjectId } = mongoose.Types;
    const db = mongoose.connection;
    const mismatches: string[] = [];
    page.on("console", (message) => {
      if (/hydrat|did not match|Minified React error #(418|423|425)/i.test(message.text())) mismatches.push(message.text());
    });
    const dealer = await createUser("dealer");
    const admin = await createUser("admin");

    await signInPage(page, dealer.username, dealer.password);
    expect((await page.request.put("/api/auth/preferences", { data: { language: lng } })).status()).toBe(200);
    // Security: an API token's dates and a webhook endpoint's last success.
    expect((await page.request.post("/api/auth/tokens", { data: { name: "Kiosk" } })).status()).toBe(201);
    await db.collection("apitokens").updateOne({ ownerId: new ObjectId(dealer.id) }, { $set: { createdAt: day, lastUsedAt: day } });
    const hook = "https://hooks.example.com/locale";
    expect((await page.request.post("/api/webhooks", { data: { url: hook, events: ["estimate.sent"] } })).status()).toBe(201);
    await db.collection("webhookendpoints").updateOne({ ownerId: new ObjectId(dealer.id), url: hook }, { $set: { lastSuccessAt: day } });
    await page.goto("/settings?tab=security");
    await expect(page.locator("html")).toHaveAttribute("lang", lng);
    const token = page.getByRole("row").filter({ hasText: "Kiosk" });
    await expect(token).toContainText(date);
    await expect(token).not.toContainText("11/27/2026");
    const endpoint = page.getByTestId("webhook-row").filter({ hasText: "hooks.example.com/locale" });
    await expect(endpoint).toContainText(date);

    // System: a running import's progress, its counts in the language's digits.
    const run = await db.collection("imports").insertOne({
      ownerId: new ObjectId(dealer.id), token: `locale-${dealer.id}`, status: "running", holder: "elsewhere", leaseUntil: new Date(Date.now() + 3_600_000),
      records: 5000, applied: 1234, attempts: 1, report: null, finishedAt: null, createdAt: new Date(), updatedAt: new Date(),
    });
    await page.goto("/settings?tab=system");
    await expect(page.getByTestId("import-running")).toContainText(progress);
    await db.collection("imports").deleteOne({ _id: run.insertedId });

    // The customer's page: its dates as its PDF prints them, in the language the PDF is printed in (the account's here).
    const id = await insertAssessment({
      ownerId: dealer.id, title: "Locale Golf", status: "sent", sentAt: day, createdAt: day, estimatedCost: 300,
      damages: [{ damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 }],
      damageCategories: ["dent"], lineItems: [{ damageType: "dent", severity: "moderate", location: "left", priced: true, totalCents: 30000 }],
    });
    const api = client({ url: process.env.E2E_BASE_URL! } as RunningApp, { token: await tokenFor(dealer.id) });
    const link = await api.post(`/api/assessments/${id}/links`);
    expect(link.status).toBe(201);
    const customer = await browser.newContext({ baseURL, locale: "en-US", javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    const view = await customer.newPage();
    await view.goto(new URL(link.json.url as string).pathname);
    await expect(view.locator("main")).toContainText(`· ${date}`);
    await expect(view.locator("main")).not.toContainText("November 27, 2026");
    // And its words: the whole page speaks the PDF's language, whatever the customer's browser says.
    await expect(view.locator("html")).toHaveAttribute("lang", lng);
    await expect(view.getByRole("button", { name: lng === "es" ? "Aprobar presupuesto" : "Accepter le devis" })).toBeVisible();
    await expect(view.getByText(lng === "es" ? "Su nombre completo (su firma)" : "Votre nom complet (votre signature)")).toBeVisible();
    await expect(view.locator("main")).not.toContainText("Approve estimate");
    await view.screenshot({ path: test.info().outputPath(`customer-page-${lng}.png`), fullPage: true });
    await customer.close();

    // The admin's user list: when each account was made.
    await db.collection("users").updateOne({ _id: new ObjectId(dealer.id) }, { $set: { createdAt: day } });
    await page.context().clearCookies();
    await signInPage(page, admin.username, admin.password);
    expect((await page.request.put("/api/auth/preferences", { data: { language: lng } })).status()).toBe(200);
    await page.goto("/user-management");
    await expect(page.getByTestId(`user-row-${dealer.username}`)).toContainText(date);
    await expect(page.getByTestId(`user-row-${dealer.username}`)).not.toContainText("11/27/2026");
    expect(mismatches).toEqual([]);
  });
}
