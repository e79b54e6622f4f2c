import { requestScope } from "./request-scope.server";

const UNAVAILABLE_ERRORS = new Set([
  "MongoServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongooseServerSelectionError",
  // The pool cleared under an operation (the server failed its check): the operation never finished.
  "MongoPoolClearedError",
  "PoolClearedOnNetworkError",
]);

/** The `code` a driver or system error carries (11000, "EAUTH", "ECONNRESET"…); undefined when it has none. */
export const errorCode = (error: unknown): unknown => (typeof error === "object" && error !== null && "code" in error ? error.code : undefined);

/** True for errors that mean "the database is unreachable" (answer 503, not 500). */
export function isDbUnavailableError(error: unknown) {
  if (!(error instanceof Error)) return false;
  return (
    UNAVAILABLE_ERRORS.has(error.name) ||
    /before initial connection is complete|Client must be connected|connection .* closed/i.test(error.message)
  );
}

/** The object store is unreachable (services' StorageUnavailableError, matched by name): also a 503. */
export const isStorageUnavailableError = (error: unknown) => error instanceof Error && error.name === "StorageUnavailableError";

/**
 * What any request answers while the database is unreachable: screens show it, the API returns it.
 * `reason` says why when it is known (the app still starting), `retryAfterSeconds` when to try again.
 */
export function serviceUnavailable(reason?: string, retryAfterSeconds = 2, requestId = requestScope()?.requestId) {
  const message = reason ? `Service temporarily unavailable: ${reason}` : "Service temporarily unavailable";
  // The request's id, as a 500 names it (the log's lines for it say what failed).
  return new Response(JSON.stringify({ message, ...(requestId ? { requestId } : {}) }), {
    status: 503,
    statusText: "Service Unavailable",
    headers: { "Content-Type": "application/json; charset=utf-8", "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" },
  });
}
