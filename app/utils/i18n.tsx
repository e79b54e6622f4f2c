import { createContext, useContext, useEffect, type ReactNode } from "react";

/**
 * The browser side of translation: the root loader sends the current language's messages (already
 * resolved by i18next on the server) and this tiny context looks them up. Keys are the English
 * text, so an untranslated message shows as is.
 */
type Messages = Record<string, string>;
const I18nContext = createContext<Messages>({});
let current: Messages = {};

export const translate = (messages: Messages, text: string) => messages[text] ?? text;

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
  return (text: string) => translate(messages, text);
}

/** For code outside React (showToast). */
export const t = (text: string) => translate(current, text);
