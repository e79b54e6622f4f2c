import { describe, expect, it } from "vitest";
import { clientMessages, languageFromHeader, MESSAGES, translator } from "./i18n.server";

describe("translations", () => {
  it("every language has every message, translated (not left empty)", () => {
    const keys = Object.keys(MESSAGES.en).sort();
    for (const lng of ["es", "fr"] as const) {
      expect(Object.keys(MESSAGES[lng]).sort()).toEqual(keys);
      for (const key of keys) expect(MESSAGES[lng][key].trim(), `${lng}: ${key}`).not.toBe("");
    }
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
