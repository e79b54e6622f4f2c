import http from "node:http";
import https from "node:https";

const abortError = () => new DOMException("The request was aborted", "AbortError");

function bodyBytes(body: RequestInit["body"]) {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError("httpFetch sends only string or byte bodies");
}

/**
 * `fetch` on node:http for the OpenAI SDK, whatever fetch the server installed globally: with
 * Remix's polyfill (server.mjs), aborting a request whose body is being sent (the SDK's timeout, a
 * lost job) rejects a promise nobody handles, which ends the process. The answer is read whole
 * before it resolves (chat completions are not streamed here), so the SDK's timeout covers it too.
 */
export function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const { signal } = init;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    let body: Buffer | undefined;
    try {
      body = bodyBytes(init.body);
    } catch (error) {
      return reject(error);
    }
    const headers: Record<string, string> = Object.fromEntries(new Headers(init.headers).entries());
    if (body) headers["content-length"] = String(body.length);
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      finish();
    };
    const onAbort = () => {
      request.destroy();
      settle(() => reject(abortError()));
    };
    const request = (url.protocol === "https:" ? https : http).request(url, { method: init.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", (error) => settle(() => reject(error)));
      res.on("end", () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, v);
        }
        const status = res.statusCode ?? 502;
        const empty = status === 204 || status === 304;
        settle(() => resolve(new Response(empty ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: responseHeaders })));
      });
    });
    request.on("error", (error) => settle(() => reject(new TypeError("fetch failed", { cause: error }))));
    signal?.addEventListener("abort", onAbort, { once: true });
    request.end(body);
  });
}
