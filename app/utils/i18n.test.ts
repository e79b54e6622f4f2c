import { describe, expect, it } from "vitest";
import es from "~/locales/es.json";
import fr from "~/locales/fr.json";
import { pageTitle, translate } from "./i18n";

describe("translate", () => {
  it("looks a message up by its English text; English (no messages) and unknown text stay as they are", () => {
    expect(translate(es, "Save Changes")).toBe("Guardar cambios");
    expect(translate({}, "Save Changes")).toBe("Save Changes");
    expect(translate(fr, "Rosa Parks")).toBe("Rosa Parks");
  });

  it("fills {{placeholders}} in every language", () => {
    expect(translate({}, "Add {{noun}}", { noun: "Contact" })).toBe("Add Contact");
    expect(translate(fr, "Line {{n}}", { n: 2 })).toBe("Ligne 2");
  });

  it("reads a message composed with its values (a schema's, a server's) through the keys with placeholders", () => {
    // The field's name is a key too: it is translated inside the message.
    expect(translate(es, "Package name must be at most 100 characters")).toBe("Nombre del paquete: como máximo 100 caracteres");
    expect(translate(fr, "Warranty months must be at least 0")).toBe("Mois de garantie : au moins 0");
    expect(translate(fr, "Templates (3)")).toBe("Modèles (3)");
    expect(translate(es, "Connected to the account's mail server")).toBe("Conectado a el servidor de correo de la cuenta");
    // The most specific pattern wins ("… at most N characters" before "… at most N").
    expect(translate(fr, "Title must be at most 200 characters")).toBe("Titre : au plus 200 caractères");
    expect(translate({}, "Title must be at most 200 characters")).toBe("Title must be at most 200 characters");
  });

  it("titles a page in the root loader's language", () => {
    expect(pageTitle([{ id: "root", data: { messages: es } }], "Estimates")).toBe("Presupuestos · DamageIQ");
    expect(pageTitle([], "Estimates")).toBe("Estimates · DamageIQ");
  });
});
