import i18next from "i18next";
import en from "~/locales/en.json";
import es from "~/locales/es.json";
import fr from "~/locales/fr.json";
import { LANGUAGES, type Language } from "~/models/user.server";

/**
 * Translations are resolved here, on the server, with i18next: a page gets only its language's
 * messages through the root loader (a few KB), and the browser ships no i18n library. Messages are
 * keyed by their English text, so a missing translation reads as English.
 */
export const MESSAGES: Record<Language, Record<string, string>> = { en, es, fr };

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((lng) => [lng, { translation: MESSAGES[lng] }])),
  lng: "en",
  fallbackLng: "en",
  supportedLngs: [...LANGUAGES],
  // English text as keys: dots, colons and "..." are part of the message, not separators.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initImmediate: false,
});

export const isLanguage = (value: unknown): value is Language => LANGUAGES.some((language) => language === value);

/** A translator for one language: `t("Settings")` → "Configuración". */
export function translator(lng: Language) {
  const t = i18n.getFixedT(lng);
  return (text: string, vars?: Record<string, string | number>) => t(text, { defaultValue: text, ...vars });
}

/** The messages a page needs in `lng` (English needs none: its keys are its text). */
export function clientMessages(lng: Language): Record<string, string> {
  if (lng === "en") return {};
  const t = translator(lng);
  return Object.fromEntries(Object.keys(MESSAGES.en).map((key) => [key, t(key)]));
}

/** The best of our languages for an Accept-Language header (anonymous pages), else English. */
export function languageFromHeader(header: string | null): Language {
  if (!header) return "en";
  const wanted = header
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((w) => w.q > 0)
    .sort((a, b) => b.q - a.q);
  return wanted.map((w) => w.lang).find(isLanguage) ?? "en";
}
