import { createCookie, createSession, createSessionStorage, redirect, type Session } from "@remix-run/node";
import {
  createSessionRecord,
  deleteSessionRecord,
  readSessionRecord,
  updateSessionRecord,
} from "~/models/session.server";
import type { ResumedForm } from "~/schemas/resume";
import { env } from "~/utils/env.server";
import { requestMemo } from "~/utils/request-scope.server";

export const SESSION_TIMEOUTS = { "1h": 3600e3, "1d": 86400e3, "7d": 7 * 86400e3, "30d": 30 * 86400e3 } as const;
export type SessionTimeout = keyof typeof SESSION_TIMEOUTS;
export const DEFAULT_SESSION_TIMEOUT: SessionTimeout = "7d";

export interface SessionData {
  /** The person signed in: an account's owner, or (with `member`) one of its members. Absent on a signed-out visitor's session (a form kept for after the sign-in). */
  userId?: string;
  /** The signed-in person is a member of an account (docs/decisions/0067). */
  member?: boolean;
  viewAsRole?: "admin" | "dealer" | "vendor";
  /** A sign-in waiting for its two-factor code (the login screen's second step); signs no one in. */
  pendingUserId?: string;
  /** The account's appearance, copied here so every page renders it without reading the user. */
  theme?: "dark" | "light" | "auto";
  language?: "en" | "es" | "fr";
  /** Epoch ms when this sign-in ends (from the session-timeout setting at login). */
  expiresAt?: number;
  /** A signed-out visitor's form post, kept for after the sign-in (a short-lived anonymous session). */
  resume?: ResumedForm;
  /** The same after the sign-in, until its page is shown (then removed). */
  resumed?: ResumedForm;
}
export interface Toast {
  title: string;
  message: string;
  color?: "green" | "red" | "blue" | "yellow";
  /** Values for the message's `{{name}}` placeholders (translated with them in the root loader). */
  vars?: Record<string, string | number>;
}
interface FlashData {
  toast: Toast;
}

const secure = env.PUBLIC_URL?.startsWith("https://") ?? false;

export const sessionCookie = createCookie(secure ? "__Host-session" : "__session", {
  httpOnly: true,
  sameSite: "lax",
  secure,
  path: "/",
  secrets: [env.SESSION_SECRET],
});

export const sessionStorage = createSessionStorage<SessionData, FlashData>({
  cookie: sessionCookie,
  createData: (data, expires) =>
    createSessionRecord(data, expires ?? new Date(Date.now() + SESSION_TIMEOUTS[DEFAULT_SESSION_TIMEOUT])),
  readData: (id) => readSessionRecord(id),
  updateData: (id, data, expires) => updateSessionRecord(id, data, expires),
  deleteData: (id) => deleteSessionRecord(id),
});

export type AppSession = Session<SessionData, FlashData>;

export function getSession(request: Request) {
  return sessionStorage.getSession(request.headers.get("Cookie"));
}

// The session as the request brought it (cookie signature and database record), read once per request.
const readInitial = requestMemo(async (request) => {
  const id: string | null = await sessionCookie.parse(request.headers.get("Cookie"));
  const data = id ? await readSessionRecord<Partial<SessionData>>(id) : null;
  return { id: id ?? "", data: data ?? {} };
});

/**
 * The session as it was when the request arrived, for reading who is calling and what the page
 * shows: one database read per request however many loaders ask. Each call answers a session of
 * its own (a change to one is not seen by another); code that changes the session after a write
 * reads it fresh with `getSession`.
 */
export async function requestSession(request: Request): Promise<AppSession> {
  const { id, data } = await readInitial(request);
  // A copy: a loader setting or unsetting a key changes its own session only.
  return createSession<SessionData, FlashData>({ ...data }, id);
}

/** Commits with the session's own expiry so the cookie and the record end together. */
export function commitSession(session: AppSession) {
  const expiresAt = session.get("expiresAt");
  return sessionStorage.commitSession(session, expiresAt ? { expires: new Date(expiresAt) } : undefined);
}

/** Puts a toast into the session for the next page (shown as a notification, or a banner without JS). */
export async function flashToast(request: Request, toast: Toast) {
  const session = await getSession(request);
  session.flash("toast", toast);
  return { "Set-Cookie": await commitSession(session) };
}

/** Redirect after a successful form post (no resubmission on reload), carrying a toast. */
export async function redirectWithToast(request: Request, url: string, toast: Toast) {
  return redirect(url, { headers: await flashToast(request, toast) });
}
