import type { ToastOptions } from "./toasts";
/**
 * What a form posted after the session ended keeps for after the sign-in (issue 26): the page it
 * came from and its typed fields, never a password. Shared by the server (which saves it in the
 * short-lived anonymous session) and the field components (which show it again).
 */
export interface ResumedForm {
  /** The page (path and query) the form was on. */
  path: string;
  fields: Record<string, string>;
  /** Epoch ms when it was saved. */
  at: number;
  /** The user whose session ended, when its record still said so: only they get the work back (decision 0050). */
  owner?: string;
}

/** How long typed work waits for its sign-in. */
export const RESUME_MS = 30 * 60 * 1000;
/** At most this much typed text is kept (the session record stays small). */
export const RESUME_MAX_CHARS = 64 * 1024;

/** Never kept: secrets, and the form's own bookkeeping (hidden ids, keys, the CSRF-free intent). */
const NOT_KEPT = /pass|secret|token|totp|code|key|^_|^intent$|^id$/i;

/** The typed fields of a form post worth giving back, within the size bound. */
export function keptFields(entries: Iterable<[string, FormDataEntryValue]>): Record<string, string> {
  const fields: Record<string, string> = {};
  let size = 0;
  for (const [name, value] of entries) {
    if (typeof value !== "string" || NOT_KEPT.test(name) || value === "" || name in fields) continue;
    size += name.length + value.length;
    if (size > RESUME_MAX_CHARS) break;
    fields[name] = value;
  }
  return fields;
}

/** The page a request is for, without Remix's data-request parameters. */
export function pagePath(url: URL) {
  const search = new URLSearchParams(url.search);
  search.delete("_data");
  search.delete("index");
  const query = search.toString();
  return `${url.pathname}${query ? `?${query}` : ""}`;
}

/** A form posted after the session ended is back on its page after the sign-in (docs/decisions/0050): not sent, to be checked and sent again. */
export const RESTORED_TOAST: ToastOptions = {
  title: "Typed work restored",
  message: "What you typed before you were signed out is back in the form. It was not sent: check it and submit it again.",
  color: "blue",
};
