import { createContext, useContext, useEffect, type ReactNode } from "react";

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

export const translate = (messages: Messages, text: string, vars?: Vars) => {
  const message = messages[text] ?? text;
  return vars ? message.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : message;
};

export function I18nProvider({ messages, children }: { messages: Messages; children: ReactNode }) {
  // Toasts are shown from plain functions (no hooks there): they read the same messages. A toast
  // flashed by the server arrives translated already, so the first effects need not wait for this.
  useEffect(() => {
    current = messages;
  }, [messages]);
  return <I18nContext.Provider value={messages}>{children}</I18nContext.Provider>;
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
