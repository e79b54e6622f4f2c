import { AsyncLocalStorage } from "node:async_hooks";

// One HTTP request's loaders (root, layout, screen) and action run side by side, each with its own
// copy of the Request (Remix strips its parameters into a new one): server.mjs runs every request
// inside a scope, so what they look up about the caller is looked up once per request.
const scope = new AsyncLocalStorage<object>();

/** For server.mjs: runs one request's handling inside a scope of its own. */
export function runInRequestScope<R>(run: () => R): R {
  return scope.run({}, run);
}

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
