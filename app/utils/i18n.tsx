import { createContext, useContext, useEffect, useMemo, type ReactNode } from "react";
import { formattersFor } from "./locale-format";

/**
 * The browser side of translation: the root loader sends the current language's messages (already
 * resolved by i18next on the server) and this tiny context looks them up. Keys are the English
 * text, so an untranslated message shows as is.
 */
type Messages = Record<string, string>;
/** Values for a message's `{{name}}` placeholders (i18next's syntax, so the server reads the same keys). */
export type Vars = Record<string, string | number>;
const I18nContext = createContext<Messages>({});
let current: Messages = {};

const PLACEHOLDER = /\{\{(\w+)\}\}/g;
const fill = (message: string, vars: Vars) => message.replace(PLACEHOLDER, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

type Pattern = [regex: RegExp, names: string[], key: string];
const patternCache = new WeakMap<Messages, Pattern[]>();

/** The catalogue's keys with placeholders as patterns, the most specific (longest fixed text) first. */
function patternsOf(messages: Messages) {
  let patterns = patternCache.get(messages);
  if (!patterns) {
    const fixed = (key: string) => key.replace(PLACEHOLDER, "").length;
    patterns = Object.keys(messages)
      .filter((key) => key.includes("{{"))
      .sort((x, y) => fixed(y) - fixed(x))
      .map((key) => [
        new RegExp(`^${key.split(/\{\{\w+\}\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("(.+?)")}$`, "s"),
        [...key.matchAll(PLACEHOLDER)].map((m) => m[1]),
        key,
      ]);
    patternCache.set(messages, patterns);
  }
  return patterns;
}

/**
 * `text` in the page's language. A message composed elsewhere with its values in it (a schema's
 * "Package name must be at most 100 characters", a server's toast) is matched against the keys
 * with placeholders: its values are put into the translation, translated themselves when they
 * are keys (a field's name).
 */
export const translate = (messages: Messages, text: string, vars?: Vars) => {
  const exact = messages[text];
  if (exact !== undefined || vars) return vars ? fill(exact ?? text, vars) : exact;
  for (const [regex, names, key] of patternsOf(messages)) {
    const match = regex.exec(text);
    if (match) return fill(messages[key], Object.fromEntries(names.map((name, i) => [name, messages[match[i + 1]] ?? match[i + 1]])));
  }
  return text;
};

const LanguageContext = createContext<{ language: string; timeZone: string }>({ language: "en", timeZone: "UTC" });

/**
 * Dates and money in the page's language (the root loader's), the same on the server and in the
 * browser; `when` is a date and time in the server's time zone (sent by the root loader too).
 */
export function useFormat() {
  const { language, timeZone } = useContext(LanguageContext);
  return useMemo(() => {
    const formatters = formattersFor(language);
    return { ...formatters, when: (value: string | Date) => formatters.dateTime(value, timeZone) };
  }, [language, timeZone]);
}

export function I18nProvider({
  messages,
  language = "en",
  timeZone = "UTC",
  children,
}: {
  messages: Messages;
  language?: string;
  timeZone?: string;
  children: ReactNode;
}) {
  const place = useMemo(() => ({ language, timeZone }), [language, timeZone]);
  // Toasts are shown from plain functions (no hooks there): they read the same messages. A toast
  // flashed by the server arrives translated already, so the first effects need not wait for this.
  useEffect(() => {
    current = messages;
  }, [messages]);
  return (
    <I18nContext.Provider value={messages}>
      <LanguageContext.Provider value={place}>{children}</LanguageContext.Provider>
    </I18nContext.Provider>
  );
}

export function useT() {
  const messages = useContext(I18nContext);
  return (text: string, vars?: Vars) => translate(messages, text, vars);
}

/** For code outside React (showToast). */
export const t = (text: string, vars?: Vars) => translate(current, text, vars);

/** A page's title in its language: meta functions have no hooks, so they read the root loader's messages. */
export function pageTitle(matches: readonly { id: string; data?: unknown }[], title: string) {
  const root = matches.find((match) => match.id === "root")?.data as { messages?: Messages } | undefined;
  return `${translate(root?.messages ?? {}, title)} · DamageIQ`;
}
