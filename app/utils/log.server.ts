import pino from "pino";
import { env } from "./env.server";
import { requestScope } from "./request-scope.server";

/**
 * The app's one log (issue 42, docs/decisions/0042): JSON lines on standard output, an event stream
 * for whatever collects them; at LOG_LEVEL and above; human-readable in development. A line written
 * while a request is handled carries its id, the one its answer names in X-Request-Id, so a 5xx a
 * customer reports leads to its lines. Never log a token, a cookie or a customer's personal data.
 */
export const log = pino({
  level: env.LOG_LEVEL,
  mixin(line) {
    const requestId = requestScope()?.requestId;
    return requestId && !("reqId" in line) ? { reqId: requestId } : {};
  },
  ...(env.NODE_ENV === "development" ? { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l" } } } : {}),
});
