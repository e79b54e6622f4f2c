import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientMessages, languageFromHeader, MESSAGES, translator } from "./i18n.server";

const placeholders = (text: string) => (text.match(/\{\{\w+\}\}|%\{\w+\}/g) ?? []).sort();

/** Messages written the same in English and in the language: cognates, codes and names. */
const SAME: Record<"es" | "fr", readonly string[]> = {
  es: ["Error", "Total", "Subtotal", "Total (USD)", "VIN", "Local", "Token", "Variables:", "(PDF)", "Message-ID", "Authorization: Bearer <token>", "{{latencyMs}} ms", "English", "Español", "Français", "Webhooks"],
  fr: [
    "Actions", "Contacts", "contacts", "Contact", "Menu", "Notifications", "Minimum", "Description", "Notes", "Image", "Total", "Total (USD)",
    "version", "Version", "Photo", "Photos ({{length}})", "Photo {{n}}", "Type", "Local", "Port", "Collection", "Message",
    "VIN", "(PDF)", "Message-ID", "Authorization: Bearer <token>", "{{latencyMs}} ms", "English", "Español", "Français",
    "Webhooks", "Actions", "Version {{version}}", "Photos",
  ],
};

/** Every literal t("…") / tr("…") / pageTitle(…, "…") in the app's source. */
function sourceKeys(dir = "app"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "vendor" ? [] : sourceKeys(path);
    if (!/\.tsx?$/.test(entry.name) || /\.test\./.test(entry.name)) return [];
    const source = readFileSync(path, "utf8");
    return [...source.matchAll(/\b(?:t|tr)\(\s*"((?:[^"\\]|\\.)*)"|pageTitle\(\w+, "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1] ?? m[2]}"`) as string);
  });
}

describe("translations", () => {
  it("every language has every message, translated (not left empty)", () => {
    const keys = Object.keys(MESSAGES.en).sort();
    for (const lng of ["es", "fr"] as const) {
      expect(Object.keys(MESSAGES[lng]).sort()).toEqual(keys);
      for (const key of keys) expect(MESSAGES[lng][key].trim(), `${lng}: ${key}`).not.toBe("");
    }
  });

  it("English's messages are their keys; the others keep every placeholder and are not English copies", () => {
    for (const [key, value] of Object.entries(MESSAGES.en)) expect(value).toBe(key);
    for (const lng of ["es", "fr"] as const) {
      for (const [key, value] of Object.entries(MESSAGES[lng])) {
        expect(placeholders(value), `${lng}: ${key}`).toEqual(placeholders(key));
        if (!SAME[lng].includes(key)) expect(value, `${lng}: ${key} is left in English`).not.toBe(key);
      }
    }
  });

  it("every message the source asks for is in the catalogue", () => {
    const keys = sourceKeys();
    expect(keys.length).toBeGreaterThan(500);
    expect(keys.filter((key) => !(key in MESSAGES.en))).toEqual([]);
  });

  it("translates the shell and the spec's toasts with i18next; unknown text stays as is", () => {
    expect(translator("es")("Settings")).toBe("Configuración");
    expect(translator("fr")("Profile Updated")).toBe("Profil mis à jour");
    expect(translator("fr")("You are logged out. Logging in again...")).toBe("Vous êtes déconnecté. Reconnexion en cours...");
    expect(translator("es")("Something new")).toBe("Something new");
    expect(clientMessages("en")).toEqual({});
    expect(clientMessages("es").Logout).toBe("Cerrar sesión");
  });

  it("reads Accept-Language by preference", () => {
    expect(languageFromHeader("de-DE,fr;q=0.8,es;q=0.9")).toBe("es");
    expect(languageFromHeader("fr-CA")).toBe("fr");
    expect(languageFromHeader("de, *;q=0.1")).toBe("en");
    expect(languageFromHeader(null)).toBe("en");
    expect(languageFromHeader("es;q=0")).toBe("en");
  });
});
