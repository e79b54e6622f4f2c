import { json, type ServerBuild } from "@remix-run/node";
import type { ZodError, ZodTypeAny, z } from "zod";
import { isDbUnavailableError, isStorageUnavailableError, serviceUnavailable } from "./db-errors.server";
import { diskFull, isDiskFullError } from "./disk.server";
import { DatabaseUnavailable, DiskFull, DomainError, Invalid, Stale, type FieldErrors } from "./domain-errors";
import { etagOf } from "./entity-tags";
import { log } from "./log.server";
import { requestScope } from "./request-scope.server";

export type { FieldErrors };

export function jsonError(status: number, message: string, errors?: FieldErrors, headers?: HeadersInit) {
  return json(errors ? { message, errors } : { message }, { status, headers });
}

/**
 * A service's typed error as the API answers it: `{message, errors}` JSON with its status, and
 * Retry-After when it gives a retry hint. Anything else: null (the caller decides).
 */
export function apiAnswer(error: unknown): Response | null {
  if (!(error instanceof DomainError)) return null;
  // A model during a database outage: the one outage answer (no-store, Retry-After), as before it is up.
  if (error instanceof DatabaseUnavailable) return serviceUnavailable();
  // A write refused for lack of disk space: its one answer (507, no-store, Retry-After; docs/decisions/0038).
  if (error instanceof DiskFull) return diskFull();
  // A stale If-Match: the version as it stands, with its tag, so the client can merge and retry.
  if (error instanceof Stale) return json({ message: error.message, current: error.current }, { status: 412, headers: { ETag: etagOf(error.current.revision) } });
  const headers = error.retryAfterSeconds !== undefined ? { "Retry-After": String(error.retryAfterSeconds) } : undefined;
  if (!error.shownAsReason) return jsonError(error.status, error.message, error.fields, headers);
  return uploadError(error.status, error.message, headers);
}

/**
 * JSON `{message}` with the message also as the HTTP reason phrase (printable ASCII, at most 200
 * characters), which is what the upload widget shows for a failed request ("Companion request
 * failed: <reason>").
 */
export function uploadError(status: number, message: string, headers?: HeadersInit) {
  const statusText = message.replace(/[^\x20-\x7e]/g, "?").slice(0, 200);
  return json({ message }, { status, statusText, headers });
}

/**
 * A refusal as a screen shows it: a 4xx typed error or a thrown 4xx JSON Response (a model's) read
 * as a message, field messages and the retry hint, and a full disk's 507 the same way (the form stays
 * as typed, "nothing was saved"); null for anything else (the error boundary's).
 */
export async function screenAnswer(error: unknown) {
  if (error instanceof DomainError) {
    if (error.status >= 500 && error.status !== 507) return null;
    const fieldErrors = error.fields && !("_" in error.fields) ? error.fields : undefined;
    const retryAfter = error.retryAfterSeconds !== undefined ? String(error.retryAfterSeconds) : undefined;
    return { status: error.status, message: error.message, fieldErrors, retryAfter };
  }
  if (!(error instanceof Response) || error.status < 400 || (error.status >= 500 && error.status !== 507)) return null;
  if (!error.headers.get("Content-Type")?.includes("json")) return null;
  const body = (await error.json()) as { message?: string; errors?: Record<string, string> };
  const fieldErrors = body.errors && !("_" in body.errors) ? body.errors : undefined;
  const retryAfter = error.headers.get("Retry-After") ?? undefined;
  return { status: error.status, message: body.message ?? "Request failed", fieldErrors, retryAfter };
}

/** First message per field, keyed by the dotted path (the API's `errors` object). */
export function fieldErrors(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    errors[key] ??= issue.message;
  }
  return errors;
}

export function validationError(error: ZodError) {
  const errors = fieldErrors(error);
  return jsonError(400, Object.values(errors)[0] ?? "Invalid request", errors);
}

/** The same refusal as a service throws it: `Invalid`, its message the first field's (validationError's answer once mapped). */
export function invalidInput(error: ZodError) {
  const fields = fieldErrors(error);
  return new Invalid(Object.values(fields)[0] ?? "Invalid request", { fields });
}

/** application/json or a +json type (application/merge-patch+json…); not any type that mentions json. */
const JSON_MEDIA_TYPE = /^application\/([a-z0-9!#$&^_.-]+\+)?json$/i;

/**
 * Reads a JSON object body; anything else is a 400/415 Response thrown to the caller (413 past
 * `maxBytes`). The body is read first (server.mjs caps every body at 1 MiB): answering before the
 * client finished sending resets its connection.
 */
export async function readJson(request: Request, { maxBytes }: { maxBytes?: number } = {}): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  const tooLarge = () => jsonError(413, `Request body is too large (at most ${Math.floor((maxBytes ?? 0) / 1024)} KB)`);
  const text = await request.text();
  if (maxBytes !== undefined && Buffer.byteLength(text) > maxBytes) throw tooLarge();
  if (text.trim() === "") return {};
  if (!JSON_MEDIA_TYPE.test(type.split(";")[0].trim())) {
    throw jsonError(415, "Content-Type must be application/json");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw jsonError(400, "Request body is not valid JSON");
  }
}

/** Parses a JSON body with the operation's schema: only the listed fields survive. */
export async function parseJson<S extends ZodTypeAny>(request: Request, schema: S, options?: { maxBytes?: number }): Promise<z.infer<S>> {
  const body = await readJson(request, options);
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * Default caching of what the app renders for a caller: never stored when it may be someone's
 * (a session cookie or a token came with it), revalidated otherwise, and never shared between
 * callers. A route that sets Cache-Control itself (media, health) keeps its own.
 */
export function setPrivateCaching(headers: Headers, request: Request) {
  if (!headers.has("Cache-Control")) {
    const personal = request.headers.has("Cookie") || request.headers.has("Authorization");
    headers.set("Cache-Control", personal ? "no-store" : "no-cache");
  }
  headers.append("Vary", "Cookie");
}

/**
 * Wraps an API loader/action: thrown Responses pass through, typed errors become their answers, an unreachable
 * database answers 503, anything else a bare 500 (never a stack trace).
 * Screens need no wrapper: server.mjs's build answers the models' typed errors (a 503 during an
 * outage; `answeringDomainErrors`), and a top-level call in a route module would end up in the browser bundle.
 */
export function api<Args extends { request: Request }>(handler: (args: Args) => Promise<Response>) {
  const run = async (args: Args): Promise<Response> => {
    try {
      return await handler(args);
    } catch (error) {
      if (error instanceof Response) return error;
      const answer = apiAnswer(error);
      if (answer) return answer;
      if (isDbUnavailableError(error) || isStorageUnavailableError(error)) return serviceUnavailable();
      if (isDiskFullError(error)) return diskFull();
      log.error({ err: error }, "unhandled error");
      // The id the log line carries, for the caller to quote (also in the X-Request-Id header).
      const requestId = requestScope()?.requestId;
      return json({ message: "Internal Server Error", ...(requestId ? { requestId } : {}) }, { status: 500 });
    }
  };
  return async (args: Args): Promise<Response> => {
    const response = await run(args);
    setPrivateCaching(response.headers, args.request);
    return response;
  };
}

type Handler<Args> = (args: Args) => Promise<Response>;

/** Dispatches an API action by HTTP method; other methods answer 405 with an Allow header. */
export function methods<Args extends { request: Request }>(handlers: Partial<Record<"POST" | "PUT" | "PATCH" | "DELETE", Handler<Args>>>) {
  const action = api(async (args: Args) => {
    const handler = handlers[args.request.method as keyof typeof handlers];
    if (!handler) {
      return jsonError(405, "Method not allowed", undefined, { Allow: Object.keys(handlers).join(", ") });
    }
    return handler(args);
  });
  // server.mjs answers OPTIONS and other methods from this list (with the loader's GET and HEAD).
  return Object.assign(action, { allowedMethods: Object.keys(handlers) });
}

type RouteFunction = (args: never) => unknown;

/** A loader or action whose escaping typed error is thrown on as the API answer (the error boundary's status and data). */
function answeringTypedErrors<F extends RouteFunction>(handler: F): F {
  return (async (args: never) => {
    try {
      return await handler(args);
    } catch (error) {
      throw apiAnswer(error) ?? error;
    }
  }) as F;
}

/**
 * The build with every route's loader and action answering services' typed errors
 * (server.mjs serves this one): a refusal no route turned into an answer itself — a screen's
 * loader asking for another account's record — is the same 404/409/… it is on the API, the
 * status and `{message}` a screen's error boundary shows. API routes map them first (`api`),
 * screen forms show them as form errors (`screenAnswer`).
 */
export function answeringDomainErrors(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const { loader, action } = route.module;
      const module = {
        ...route.module,
        ...(loader ? { loader: answeringTypedErrors(loader) } : {}),
        ...(action ? { action: answeringTypedErrors(action) } : {}),
      };
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes };
}
