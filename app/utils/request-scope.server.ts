import { AsyncLocalStorage } from "node:async_hooks";

/** What is known about one request while it is handled: its id (X-Request-Id) and, once resolved, its account. */
export interface RequestScope {
  requestId?: string;
  accountId?: string;
}

// One HTTP request's loaders (root, layout, screen) and action run side by side, each with its own
// copy of the Request (Remix strips its parameters into a new one): server.mjs runs every request
// inside a scope, so what they look up about the caller is looked up once per request, and the log
// lines written meanwhile carry the request's id.
const scope = new AsyncLocalStorage<RequestScope>();

/** For server.mjs: runs one request's handling inside a scope of its own (its access line reads it after). */
export function runInRequestScope<R>(run: () => R, store: RequestScope = {}): R {
  return scope.run(store, run);
}

/** The current request's scope; undefined outside one (a background job, a test calling a loader). */
export const requestScope = () => scope.getStore();

/**
 * `make` once per request: its answer is kept for the rest of the request's scope (outside one, as a
 * test calling a loader directly, per Request object).
 */
export function requestMemo<T>(make: (request: Request) => T): (request: Request) => T {
  const memo = new WeakMap<object, T>();
  return (request) => {
    const key = scope.getStore() ?? request;
    if (memo.has(key)) return memo.get(key)!;
    const value = make(request);
    memo.set(key, value);
    return value;
  };
}
