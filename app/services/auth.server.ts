import { hash, verify } from "@node-rs/argon2";
import { json, redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { LOGGED_OUT_TOAST } from "~/schemas/logged-out";
import { keptFields, pagePath, RESUME_MS, type ResumedForm } from "~/schemas/resume";
import { redeemApiToken } from "~/models/api-token.server";
import { findMemberForLogin, type MemberRecord } from "~/models/member.server";
import { attemptsSince, clearAttempts, forgetAttempt, recordAttempt } from "~/models/login-attempt.server";
import { deleteUserSessions, sessionOwner } from "~/models/session.server";
import {
  User,
  findSignedInUser,
  findUserById,
  findUserForLogin,
  toPublicUser,
  usernameKey,
  type PublicUser,
  type Role,
} from "~/models/user.server";
import { loginSchema } from "~/schemas/auth";
import { checkSecondFactor } from "./two-factor.server";
import { Invalid, TooMany, Unauthenticated, Unavailable } from "~/utils/domain-errors";
import { invalidInput, jsonError, setPrivateCaching } from "~/utils/http.server";
import { assertSameOrigin, isApiRequest, isOwnPagePost } from "~/utils/request.server";
import { requestMemo, requestScope } from "~/utils/request-scope.server";
import type { Actor } from "./actor";
import { memberActor } from "./member-actor.server";
import { allowedOperations } from "./permissions.server";
import { sendLoginNotification } from "./outbox.server";
import {
  commitSession,
  DEFAULT_SESSION_TIMEOUT,
  getSession,
  requestSession,
  SESSION_TIMEOUTS,
  sessionCookie,
  sessionStorage,
  type AppSession,
  type Toast,
} from "./session.server";

/**
 * Failed sign-ins allowed per window: per username and client IP, per client IP over all usernames,
 * and per username over all addresses (a guesser with many addresses — 127.0.0.1 and ::1 were
 * already two — gets no more tries at one account than this).
 */
export const THROTTLE_MAX_FAILURES = 5;
export const THROTTLE_MAX_PER_IP = 30;
export const THROTTLE_MAX_PER_ACCOUNT = 20;
/**
 * The account's ceiling is reached: said before the password is looked at, so a right one and a wrong
 * one get the same answer (and an unknown username the same as a real one).
 */
export const ACCOUNT_LOCKED_MESSAGE = "Too many failed sign-ins to this account. It is locked for a while; please try again later.";
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** Password checks (argon2id, 19 MiB each) at once, and how many may wait for one. */
const MAX_CONCURRENT_HASHES = 4;
const MAX_WAITING_HASHES = 32;

type UserRecord = InstanceType<typeof User>;
/** Who a password signs in: an account's owner, or one of its members (then `user` is the account). */
type Principal = { user: UserRecord; member?: MemberRecord };

// argon2id with OWASP's minimum parameters (19 MiB, 2 passes).
const ARGON = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
export const hashPassword = (password: string) => hash(password, ARGON);
export const verifyPassword = (passwordHash: string, password: string) =>
  verify(passwordHash, password).catch(() => false);
// Verified against when the username is unknown, so both failures take the same time.
let dummyHash: Promise<string> | undefined;

const CLIENT_IP_HEADER = "x-damageiq-client-ip";

const authenticator = new Authenticator<Principal>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = loginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw invalidInput(parsed.error);
    const { username, password } = parsed.data;
    const ip = request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
    const userKey = `${username.toLowerCase()}|${ip}`;
    const ipKey = `ip|${ip}`;
    const accountKey = `account|${usernameKey(username)}`;
    const attempt = await admitAttempt([
      { key: userKey, max: THROTTLE_MAX_FAILURES },
      { key: ipKey, max: THROTTLE_MAX_PER_IP },
      { key: accountKey, max: THROTTLE_MAX_PER_ACCOUNT, message: ACCOUNT_LOCKED_MESSAGE },
    ]);

    const user = await findUserForLogin(username);
    // Not an account's own login: one of an account's members (an active one; docs/decisions/0067).
    const member = user ? null : await findMemberForLogin(usernameKey(username));
    const hash = user?.passwordHash ?? (member?.status === "active" ? member.passwordHash : undefined);
    const ok = await withPasswordCheck(async () => verifyPassword(hash ?? (await (dummyHash ??= hashPassword("not-a-password"))), password)).catch(async (error: unknown) => {
      await attempt.forget();
      throw error;
    });
    const account = member && hash && ok ? await findSignedInUser(String(member.ownerId)) : null;
    // A failed attempt stays recorded (it counts); a successful one clears the username's.
    if (!ok || !(user ?? account)) throw new Unauthenticated("Invalid credentials");
    await attempt.forget();
    await clearAttempts({ key: userKey, olderThan: new Date(Date.now() - THROTTLE_WINDOW_MS) });
    if (user) return { user };
    if (!account || !member) throw new Unauthenticated("Invalid credentials");
    return { user: account, member };
  }),
  "password",
);

/**
 * Records a sign-in attempt under each key, then counts: over a key's limit it is a 429 (and the
 * attempt is not kept, so refused attempts do not extend the lock-out). Writing first makes the
 * limit hold under concurrency: an attempt's count includes every attempt written before it.
 */
async function admitAttempt(limits: { key: string; max: number; message?: string }[]) {
  const keys = limits.map((l) => l.key);
  const at = await recordAttempt({ keys });
  const forget = () => forgetAttempt({ keys, at });
  const since = new Date(Date.now() - THROTTLE_WINDOW_MS);
  for (const { key, max, message } of limits) {
    const { count, oldestAt } = await attemptsSince({ key, since });
    if (count > max) {
      await forget();
      const retryAfter = Math.ceil(((oldestAt?.getTime() ?? Date.now()) + THROTTLE_WINDOW_MS - Date.now()) / 1000);
      throw new TooMany(message ?? "Too many failed login attempts. Please try again later.", { retryAfterSeconds: Math.max(retryAfter, 1) });
    }
  }
  return { forget };
}

// argon2id is deliberately expensive: only a few checks run at once and a few more may wait; a
// flood beyond that is told to come back (503) instead of queueing without bound.
let hashing = 0;
const waiting: (() => void)[] = [];
async function withPasswordCheck<T>(check: () => Promise<T>): Promise<T> {
  if (hashing < MAX_CONCURRENT_HASHES) hashing += 1;
  else if (waiting.length < MAX_WAITING_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  else throw new Unavailable("Too many sign-ins at once. Please try again in a moment.", { retryAfterSeconds: 1 });
  try {
    return await check();
  } finally {
    // Hand the slot to the next waiter, or give it back.
    const next = waiting.shift();
    if (next) next();
    else hashing -= 1;
  }
}

/** Wrong current passwords allowed per account per window when a change asks for it again. */
export const THROTTLE_MAX_REAUTH_FAILURES = 5;

/**
 * Re-authentication before a sensitive change (a new password, turning two-factor on, a new email):
 * the account's current password, so a session left open or stolen cannot lock the owner out. Wrong
 * ones are throttled per account like sign-ins (429 after 5 in 15 minutes). Answers the user with its
 * password hash (for a change that writes it); 400 on `currentPassword` when missing or wrong.
 */
export async function verifyCurrentPassword(actor: Actor, password: string | undefined) {
  if (!password) throw new Invalid("Current password is required", { fields: { currentPassword: "Current password is required" } });
  const attempt = await admitAttempt([{ key: `reauth|${actor.id}`, max: THROTTLE_MAX_REAUTH_FAILURES }]);
  const user = await User.findById(actor.id).select("+passwordHash");
  const ok = user ? await withPasswordCheck(() => verifyPassword(user.passwordHash, password)) : false;
  if (!user || !ok) throw new Invalid("Current password is incorrect", { fields: { currentPassword: "Current password is incorrect" } });
  await attempt.forget();
  return user;
}

/** Wrong second-factor codes allowed per account per window (then 429 until the window passes). */
export const THROTTLE_MAX_CODE_FAILURES = 5;
/** How long the login screen's code step waits after the password was right. */
const SECOND_STEP_MS = 5 * 60 * 1000;

const codeRequired = () =>
  new Unauthenticated("Two-factor code required", { fields: { totp: "Enter the 6-digit code from your authenticator app" } });

/**
 * A second-factor code for `userId`, throttled per account (a guessed code is 1 in 10^6 per try,
 * so the window's few tries keep it out of reach). Throws 401 for a wrong code, 429 when throttled.
 */
async function requireSecondFactor(userId: string, code: string) {
  const key = `totp|${userId}`;
  const attempt = await admitAttempt([{ key, max: THROTTLE_MAX_CODE_FAILURES }]);
  if (!(await checkSecondFactor(userId, code))) throw new Unauthenticated("Invalid verification code", { fields: { totp: "Invalid verification code" } });
  await attempt.forget();
  await clearAttempts({ key });
}

/**
 * Checks username and password (throttled per username + client IP, per client IP and per username) and starts a fresh session.
 * `credentials` come from a form post or a JSON body; errors are thrown as JSON Responses.
 * An account with two-factor on also needs `totp` (a code or a recovery code): without it the API
 * answers 401 "Two-factor code required", while a screen (`secondStep`) gets a pending sign-in that
 * `completeSecondStep` finishes.
 */
type LoginArgs = { request: Request; credentials: unknown; clientIp?: string; welcome?: Toast };
type SignedIn = { twoFactor?: false; user: PublicUser; headers: HeadersInit };
export async function login(args: LoginArgs & { secondStep?: false }): Promise<SignedIn>;
export async function login(args: LoginArgs & { secondStep: true }): Promise<SignedIn | { twoFactor: true; headers: HeadersInit }>;
export async function login({
  request,
  credentials,
  clientIp,
  welcome,
  secondStep = false,
}: LoginArgs & { secondStep?: boolean }): Promise<SignedIn | { twoFactor: true; headers: HeadersInit }> {
  assertSameOrigin(request);
  const parsed = loginSchema.safeParse(credentials);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { username, password, totp } = parsed.data;
  const strategyRequest = new Request(request.url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", [CLIENT_IP_HEADER]: clientIp ?? "unknown" },
    body: new URLSearchParams({ username, password }),
  });
  const { user, member } = await authenticator.authenticate("password", strategyRequest);
  // A member signs in as themself (two-factor of their own is not offered yet: docs/decisions/0067).
  if (member) return { user: toPublicUser(user), headers: await startSession(request, user, welcome, member) };
  if (user.twoFactor?.enabled) {
    if (totp) await requireSecondFactor(String(user._id), totp);
    else if (secondStep) return { twoFactor: true, headers: await startSecondStep(request, user) };
    else throw codeRequired();
  }
  return signIn(request, user, clientIp, welcome);
}

/** A session for `user`, and the login notice (queued in the email outbox: nothing waits for the mail server). */
async function signIn(request: Request, user: UserRecord, clientIp?: string, welcome?: Toast) {
  const headers = await startSession(request, user, welcome);
  await sendLoginNotification(user, { ip: clientIp, userAgent: request.headers.get("User-Agent") });
  return { user: toPublicUser(user), headers };
}

/** The password was right: a session that signs no one in, only remembers whose code to ask for. */
async function startSecondStep(request: Request, user: UserRecord) {
  const old = await getSession(request);
  const resume = unexpiredResume(old);
  if (old.id) await sessionStorage.destroySession(old);
  const session = await sessionStorage.getSession();
  if (resume) session.set("resume", resume);
  const expiresAt = Date.now() + SECOND_STEP_MS;
  session.set("pendingUserId", String(user._id));
  session.set("expiresAt", expiresAt);
  return { "Set-Cookie": await commitSession(session) };
}

/** The login screen's second step: the code for the pending sign-in; a real session when it is right. */
export async function completeSecondStep({ request, code, welcome }: { request: Request; code: string; welcome?: Toast }) {
  assertSameOrigin(request);
  const session = await getSession(request);
  const userId = session.get("pendingUserId");
  const user = userId ? await findUserById(userId) : null;
  if (!user) throw new Unauthenticated("Your sign-in has expired. Please enter your username and password again.");
  await requireSecondFactor(String(user._id), code);
  return signIn(request, user, undefined, welcome);
}

/** Typed work the signed-out session keeps, while it is fresh. */
function unexpiredResume(session: AppSession) {
  const resume = session.get("resume");
  return resume && Date.now() - resume.at < RESUME_MS ? resume : undefined;
}

/**
 * A new session id at every sign-in (no fixation); the old session, if any, is destroyed. `toast`
 * goes into the new one for the next page (the sign-in's welcome, or a password change's message).
 */
export async function startSession(request: Request, user: UserRecord, toast?: Toast, member?: MemberRecord) {
  const old = await getSession(request);
  const typed = unexpiredResume(old);
  // The person signing in: a member's session is theirs (ended when they are suspended or removed).
  const personId = String(member?._id ?? user._id);
  // Another user signing in at the same browser gets nothing of the last one's typed work.
  const resume = typed && (!typed.owner || typed.owner === personId) ? typed : undefined;
  if (old.id) await sessionStorage.destroySession(old);
  const session = await sessionStorage.getSession();
  // The typed work of a form posted after the last session ended: for the first page.
  if (resume) session.set("resumed", resume);
  const timeout = user.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT;
  session.set("userId", personId);
  if (member) session.set("member", true);
  session.set("expiresAt", Date.now() + SESSION_TIMEOUTS[timeout]);
  session.set("theme", user.theme ?? "light");
  session.set("language", user.language ?? "en");
  // The sign-in's success message or the password change's, for the first page (JavaScript or not).
  if (toast) session.flash("toast", toast);
  return { "Set-Cookie": await commitSession(session) };
}

export async function logout(request: Request) {
  const session = await getSession(request);
  return { "Set-Cookie": await sessionStorage.destroySession(session) };
}

/** Ends every session of the user (password change, deletion). */
export const endAllSessions = (userId: string) => deleteUserSessions(userId);

/** Resolves the caller from a Bearer API token or the session cookie; null when anonymous. Once per request. */
export const getActor = requestMemo(async (request: Request) => {
  const actor = await resolveActor(request);
  // The request's access log line names its account (server.mjs).
  const scope = requestScope();
  if (scope && actor) scope.accountId = actor.id;
  return actor;
});

async function resolveActor(request: Request): Promise<Actor | null> {
  const authorization = request.headers.get("Authorization");
  if (authorization?.startsWith("Bearer ")) {
    const redeemed = await redeemApiToken(authorization.slice(7).trim());
    const user = redeemed ? await findSignedInUser(redeemed.ownerId) : null;
    if (!redeemed || !user) return null;
    // A member's token acts with the member's role, while the member is active.
    return redeemed.memberId ? memberActor(redeemed.memberId, "token", user) : { id: String(user._id), user, role: user.role, realRole: user.role, via: "token" };
  }
  if (!request.headers.get("Cookie")) return null;
  const session = await requestSession(request);
  const userId = session.get("userId");
  if (!userId) return null;
  if (session.get("member")) return memberActor(userId, "session");
  const user = await findSignedInUser(userId);
  if (!user) return null;
  const realRole = user.role;
  const preview = realRole === "admin" ? session.get("viewAsRole") : undefined;
  return { id: String(user._id), user, role: preview ?? realRole, realRole, via: "session" };
}

/**
 * A screen's form post whose session ended: its typed fields (never a password), for the page after
 * the sign-in. The body is read from a copy when the action has not read it yet.
 */
async function typedWork(request: Request, path: string): Promise<ResumedForm | null> {
  const type = request.headers.get("Content-Type") ?? "";
  if (request.method !== "POST" || request.bodyUsed || !type.startsWith("application/x-www-form-urlencoded")) return null;
  // Only this site's own pages: another site's post must not fill in a form for the next sign-in.
  if (!isOwnPagePost(request)) return null;
  const fields = keptFields(await request.clone().formData());
  if (Object.keys(fields).length === 0) return null;
  // The ended session's user, while its record is there: nobody else signing in here gets the work.
  const endedId: string | null = await sessionCookie.parse(request.headers.get("Cookie"));
  const owner = endedId ? await sessionOwner(endedId) : null;
  return { path, fields, at: Date.now(), ...(owner ? { owner } : {}) };
}

async function unauthorized(request: Request): Promise<Response> {
  if (isApiRequest(request)) return json({ message: "Unauthorized" }, { status: 401 });
  const url = new URL(request.url);
  const redirectTo = pagePath(url);
  const login = redirectTo === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`;
  // A session cookie that no longer signs anyone in: the session ended, so say so on the login page
  // (through a new session: the ended one's record is gone or expired and takes no flash).
  // Remix sends a loader's redirect as it is (entry.server's headers never see it): the same address
  // is a page when signed in, so this answer must not be cached for another visitor either.
  // A form post without any session is one whose session ended too (its cookie expired with it).
  const headers = new Headers();
  setPrivateCaching(headers, request);
  const posted = request.method !== "GET" && request.method !== "HEAD";
  if (!posted && (await sessionCookie.parse(request.headers.get("Cookie"))) === null) return redirect(login, { headers });
  const session = await sessionStorage.getSession();
  session.flash("toast", LOGGED_OUT_TOAST);
  // This anonymous session only carries the message and the typed work to the sign-in: short-lived.
  session.set("expiresAt", Date.now() + RESUME_MS);
  const work = await typedWork(request, redirectTo);
  if (work) session.set("resume", work);
  headers.set("Set-Cookie", await commitSession(session));
  return redirect(login, { headers });
}

/** The signed-in caller, or a thrown 401 (API) / redirect to /login (screens). Checks CSRF on writes. */
export async function requireUser(request: Request): Promise<Actor> {
  const actor = await getActor(request);
  if (!actor) throw await unauthorized(request);
  if (actor.via === "session") assertSameOrigin(request);
  // A role that may only read (a viewer) writes nothing, whichever service a write would reach (docs/decisions/0067).
  if (request.method !== "GET" && request.method !== "HEAD" && !allowedOperations(actor).some((op) => op !== "records.read")) throw forbidden(request);
  return actor;
}

export function forbidden(request: Request): Response {
  if (isApiRequest(request)) return jsonError(403, "Forbidden");
  return new Response("You do not have access to this page.", { status: 403, statusText: "Forbidden" });
}

/** Admin-only operations: 403 for dealers, vendors and an admin previewing another role. */
export async function requireAdmin(request: Request): Promise<Actor> {
  const actor = await requireUser(request);
  if (actor.role !== "admin") throw forbidden(request);
  return actor;
}

/** The current-user document as `GET /api/auth/user` answers it. */
export function currentUserJson(actor: Actor): PublicUser & { _originalRole: Role } {
  return { ...toPublicUser(actor.user), role: actor.role, _originalRole: actor.realRole };
}
