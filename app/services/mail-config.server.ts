import { createHash } from "node:crypto";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { User } from "~/models/user.server";
import type { MailServerInput } from "~/schemas/email";
import { env } from "~/utils/env.server";
import { connectOutbound, OutboundRefusedError, resolveOutbound } from "~/utils/outbound.server";
import type { Actor } from "./actor";
import { MAIL_PASSWORD, openFor, sealFor } from "./secret-box.server";
import { Invalid, NotFound } from "~/utils/domain-errors";
import { errorCode } from "~/utils/db-errors.server";
import { authorize } from "./permissions.server";

/**
 * Where an account's mail goes (docs/decisions/0011): its own server from Settings → Email when it
 * set a host, else the SMTP_* environment, else the local mail drop (outbox/ in object storage). Through its
 * own server an account sends as it likes; through the operator's relay or the drop a message is
 * From the operator (MAIL_FROM) with the account's address as Reply-To, so no account can send in
 * another's or anyone's name through the operator's domain.
 */
export type MailRoute =
  | {
      kind: "smtp";
      source: "account" | "environment";
      host: string;
      port: number;
      secure: boolean;
      user?: string;
      pass?: string;
      from: string;
      replyTo?: string;
      senderName?: string;
    }
  | { kind: "drop"; from: string; replyTo?: string; senderName?: string };

/** A From's display name and address (`Name <a@b>`, `"Name" <a@b>` or `a@b`). */
export function splitFrom(from: string) {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from);
  if (!match) return { name: "", address: from.trim() };
  return { name: match[1].replace(/^"(.*)"$/, "$1").trim(), address: match[2].trim() };
}

/**
 * The From of an email to the account's customer: the dealership's name (`senderName`) over the
 * route's address, which stays as it is; a route without a sender name (an account's own From that
 * names itself) as written.
 */
export function customerFrom(route: MailRoute): string | { name: string; address: string } {
  return route.senderName ? { name: route.senderName, address: splitFrom(route.from).address } : route.from;
}

/** Timeouts of one SMTP conversation: a dead server fails an attempt in seconds, not minutes. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 } as const;

/** The account's SMTP password sealed at rest (secret-box, its own key: not the cookie key). */
const encryptSecret = (plain: string) => sealFor(MAIL_PASSWORD, plain);

/** The plain password; null when it cannot be read (another SESSION_SECRET, tampered). */
const decryptSecret = (sealed: string) => openFor(MAIL_PASSWORD, sealed);

interface StoredMailServer {
  host?: string;
  port?: number;
  secure?: boolean;
  user?: string;
  passwordEnc?: string;
  from?: string;
}

/** The sender when nothing names one: MAIL_FROM, else a no-reply address of the app's host. */
function defaultFrom() {
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const host = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : "localhost";
  return `DamageIQ <no-reply@${host}>`;
}

async function storedMailServer(ownerId: string): Promise<StoredMailServer> {
  return (await accountMail(ownerId)).mailServer ?? {};
}

async function accountMail(ownerId: string) {
  const user = await User.findById(ownerId)
    .select({ mailServer: 1, email: 1, companyName: 1, firstName: 1, lastName: 1, username: 1 })
    .lean<{ mailServer?: StoredMailServer; email?: string; companyName?: string; firstName?: string; lastName?: string; username?: string }>();
  // The dealership as its customers know it (the PDF's header and the estimate page name it so).
  const name = user ? user.companyName || `${user.firstName ?? ""} ${user.lastName ?? ""}`.trim() || user.username || undefined : undefined;
  return { mailServer: user?.mailServer, email: user?.email, name };
}

/** Where the account's mail goes now. */
export async function mailRouteFor(ownerId: string): Promise<MailRoute> {
  const account = await accountMail(ownerId);
  const own = account.mailServer ?? {};
  const replyTo = own.from || account.email || undefined;
  if (own.host) {
    return {
      kind: "smtp",
      source: "account",
      host: own.host,
      port: own.port ?? 587,
      secure: own.secure ?? false,
      user: own.user,
      pass: own.passwordEnc ? (decryptSecret(own.passwordEnc) ?? undefined) : undefined,
      from: own.from || defaultFrom(),
      // A From the account wrote with a name of its own keeps it.
      senderName: own.from && splitFrom(own.from).name ? undefined : account.name,
    };
  }
  if (env.SMTP_HOST) {
    return {
      kind: "smtp",
      source: "environment",
      host: env.SMTP_HOST,
      port: env.SMTP_PORT,
      secure: env.SMTP_SECURE,
      user: env.SMTP_USER,
      pass: env.SMTP_PASS,
      from: defaultFrom(),
      replyTo,
      senderName: account.name,
    };
  }
  return { kind: "drop", from: defaultFrom(), replyTo, senderName: account.name };
}

type SmtpRoute = Extract<MailRoute, { kind: "smtp" }>;

/**
 * An account's own server is reached only through the outbound rule (app/utils/outbound.server.ts):
 * every connection (a test, a message, a pool's reconnect) resolves the host, refuses a private or
 * local address unless OUTBOUND_ALLOW lets it, and connects to the address it checked; the host name
 * stays the TLS server name. The operator's SMTP_* relay is the operator's choice and is not checked.
 */
const guardedSocket: SMTPTransport.Options["getSocket"] = (options, callback) => {
  connectOutbound({
    host: options.host ?? "",
    port: Number(options.port ?? 587),
    allow: env.OUTBOUND_ALLOW,
    timeoutMs: SMTP_TIMEOUTS.connectionTimeout,
  }).then(
    (connection) => callback(null, { connection }),
    (error: Error) => callback(error, {}),
  );
};

const smtpOptions = (route: SmtpRoute): SMTPTransport.Options => ({
  host: route.host,
  port: route.port,
  secure: route.secure,
  ...(route.user ? { auth: { user: route.user, pass: route.pass ?? "" } } : {}),
  ...SMTP_TIMEOUTS,
  ...(route.source === "account" ? { getSocket: guardedSocket } : {}),
});

/** A one-off transport (Test Connection's `verify()`); the caller closes it. */
export function smtpTransport(route: SmtpRoute) {
  return nodemailer.createTransport(smtpOptions(route));
}

/** Pooled transports of the worker, one per mail server and login, closed after a while unused. */
const POOL_IDLE_MS = 60_000;
const pools = new Map<string, { transport: ReturnType<typeof nodemailer.createTransport>; lastUsed: number }>();

/**
 * The worker's transport for a route: a small pool of SMTP connections kept open between messages
 * (a new connection, greeting and login per message cost more than the message). Keyed by a hash of
 * the route, so a changed password or server gets a pool of its own and the old one ages out.
 */
export function pooledTransport(route: SmtpRoute) {
  const key = createHash("sha256").update(JSON.stringify([route.host, route.port, route.secure, route.user, route.pass])).digest("hex");
  const now = Date.now();
  for (const [k, entry] of pools) {
    if (k !== key && now - entry.lastUsed > POOL_IDLE_MS) {
      entry.transport.close();
      pools.delete(k);
    }
  }
  let entry = pools.get(key);
  if (!entry) {
    entry = {
      transport: nodemailer.createTransport({ ...smtpOptions(route), pool: true, maxConnections: 2, maxMessages: 100, idleTimeout: POOL_IDLE_MS }),
      lastUsed: now,
    };
    pools.set(key, entry);
  }
  entry.lastUsed = now;
  return entry.transport;
}

/** Closes every pooled connection (the worker is stopping). */
export function closePooledTransports() {
  for (const entry of pools.values()) entry.transport.close();
  pools.clear();
}

/** Settings → Email as the form shows it: the password only as "set" or not. */
export async function getMailServerSettings(actor: Actor) {
  const own = await storedMailServer(actor.id);
  return {
    host: own.host ?? "",
    port: own.port ?? 587,
    secure: own.secure ?? false,
    user: own.user ?? "",
    passwordSet: Boolean(own.passwordEnc),
    from: own.from ?? "",
    /** What applies while no host is set here. */
    fallback: env.SMTP_HOST ? ("environment" as const) : ("drop" as const),
  };
}
export type MailServerSettings = Awaited<ReturnType<typeof getMailServerSettings>>;

/** Saves Settings → Email. A blank password keeps the stored one; `clearPassword` removes it. */
export async function saveMailServerSettings(actor: Actor, input: MailServerInput) {
  authorize(actor, "integrations.manage");
  if (input.host) await assertHostAllowed(input.host);
  const own = await storedMailServer(actor.id);
  const passwordEnc = input.clearPassword ? undefined : input.password ? encryptSecret(input.password) : own.passwordEnc;
  const mailServer: StoredMailServer = {
    ...(input.host ? { host: input.host } : {}),
    port: input.port,
    secure: input.secure,
    ...(input.user ? { user: input.user } : {}),
    ...(passwordEnc ? { passwordEnc } : {}),
    ...(input.from ? { from: input.from } : {}),
  };
  const { matchedCount } = await User.updateOne({ _id: actor.id }, { $set: { mailServer } });
  if (matchedCount !== 1) throw new NotFound("User not found");
  forgetStatus(actor.id);
  return getMailServerSettings(actor);
}

/**
 * A host that resolves to a private or local address is refused when saved (it would be refused at
 * every connection anyway). One that does not resolve now is kept: its connections are checked.
 */
async function assertHostAllowed(host: string) {
  try {
    await resolveOutbound(host, env.OUTBOUND_ALLOW);
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new Invalid(error.message, { fields: { host: error.message } });
  }
}

export interface ConnectionStatus {
  connected: boolean;
  /** Why not (or where mail goes), in words. */
  reason?: string;
  /** The route tested: the account's server, the environment's, or the local drop. */
  via: "account" | "environment" | "drop";
}

const STATUS_TTL_MS = 30_000;
const statusCache = new Map<string, { at: number; status: ConnectionStatus }>();
const forgetStatus = (ownerId: string) => statusCache.delete(ownerId);

/**
 * Why a test failed, in our words only: what the other side said (its banner, its replies) is never
 * shown, and a closed port, an open one that is not a mail server and a server that did not answer
 * read the same. Only a refused login (the server spoke SMTP and said no) and our own refusal differ.
 */
function reasonOf(route: SmtpRoute, error: unknown) {
  if (error instanceof OutboundRefusedError) return error.message;
  if (errorCode(error) === "EAUTH") return `${route.host}:${route.port}: the mail server did not accept the user name or password`;
  return `Could not connect to a mail server at ${route.host}:${route.port}`;
}

/**
 * `GET /api/email/test` and the Email Center's indicator: `transporter.verify()` against the
 * account's route (connect, greet, authenticate). The local drop is "Disconnected" with its reason:
 * mail is kept, not delivered. Answers are reused for 30 s unless `fresh` (Test Connection).
 */
export async function testConnection(actor: Actor, { fresh = false } = {}): Promise<ConnectionStatus> {
  authorize(actor, "integrations.manage");
  const cached = statusCache.get(actor.id);
  if (!fresh && cached && Date.now() - cached.at < STATUS_TTL_MS) return cached.status;
  const route = await mailRouteFor(actor.id);
  let status: ConnectionStatus;
  if (route.kind === "drop") {
    status = {
      connected: false,
      via: "drop",
      reason: "No mail server is configured (Settings → Email or SMTP_HOST): messages are kept in the local mail drop, not delivered.",
    };
  } else {
    const transport = smtpTransport(route);
    try {
      await transport.verify();
      status = { connected: true, via: route.source };
    } catch (error) {
      status = { connected: false, via: route.source, reason: reasonOf(route, error) };
    } finally {
      transport.close();
    }
  }
  statusCache.set(actor.id, { at: Date.now(), status });
  return status;
}
