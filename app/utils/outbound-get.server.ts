import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { resolveOutbound, type OutboundAllowList } from "./outbound.server";

/**
 * A GET of a user-supplied URL through the outbound rule (app/utils/outbound.server.ts): every hop
 * (the URL and each redirect's target) is resolved and checked, and its connection goes to the
 * address that was checked, so neither a redirect nor a name resolving elsewhere on the second look
 * (DNS rebinding) reaches a private, loopback or link-local address. Only http and https.
 */

/** Why a link could not be fetched; `message` is safe to show to the user who gave it. */
export class OutboundGetError extends Error {
  constructor(
    message: string,
    /** refused: the rule or the URL's form; answer: the server's status; failed: network, DNS, timeout. */
    readonly reason: "refused" | "answer" | "failed",
  ) {
    super(message);
    this.name = "OutboundGetError";
  }
}

export interface OutboundGetOptions {
  allow: OutboundAllowList;
  /** Until the answer's headers arrive, per hop. */
  timeoutMs: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The URL if it is one this server may fetch at all (http or https, no credentials in it), else an OutboundGetError. */
export function fetchableUrl(value: string, base?: URL) {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw new OutboundGetError("The link is not a valid URL", "refused");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundGetError("Only http and https links can be imported", "refused");
  if (url.username || url.password) throw new OutboundGetError("Links with a user name or password are not imported", "refused");
  return url;
}

function requestOnce(url: URL, options: OutboundGetOptions, checked: { address: string; family: number }) {
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [checked]);
    else callback(null, checked.address, checked.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = client.get(url, { lookup, agent: false, headers: { "User-Agent": "DamageIQ link import", Accept: "image/*, video/*;q=0.9, */*;q=0.1", ...options.headers } }, resolve);
    const timer = setTimeout(() => request.destroy(Object.assign(new Error(`No answer within ${Math.round(options.timeoutMs / 1000)} s`), { code: "ETIMEDOUT" })), options.timeoutMs);
    request.once("response", () => clearTimeout(timer));
    request.once("error", (error: Error & { code?: string }) => {
      clearTimeout(timer);
      reject(new OutboundGetError(`The link could not be fetched (${error.code === "ETIMEDOUT" ? error.message : (error.code ?? error.message)})`, "failed"));
    });
  });
}

/**
 * Follows the URL (and at most `maxRedirects` redirects) to an answer with status 2xx: the response
 * (its body not yet read: the caller streams or destroys it) and the URL it came from.
 */
export async function outboundGet(value: string, options: OutboundGetOptions) {
  const maxRedirects = options.maxRedirects ?? 5;
  let url = fetchableUrl(value);
  for (let hop = 0; ; hop++) {
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    let checked: { address: string; family: number };
    try {
      checked = await resolveOutbound(host, options.allow);
    } catch (error) {
      const code = error instanceof Error && "code" in error ? String(error.code) : undefined;
      if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ETIMEOUT") throw new OutboundGetError(`The server ${host} could not be found`, "failed");
      // OutboundRefusedError: its message names the host and why.
      throw new OutboundGetError(error instanceof Error ? error.message : String(error), "refused");
    }
    const response = await requestOnce(url, options, checked);
    const status = response.statusCode ?? 0;
    if (REDIRECTS.has(status) && response.headers.location) {
      response.destroy();
      if (hop >= maxRedirects) throw new OutboundGetError(`The link redirects more than ${maxRedirects} times`, "answer");
      url = fetchableUrl(response.headers.location, url);
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new OutboundGetError(`The link answered ${status}`, "answer");
    }
    // A body that stops arriving fails the read (whoever streams it) instead of holding it open.
    response.setTimeout(options.timeoutMs, () => response.destroy(new OutboundGetError(`The link stopped sending for ${Math.round(options.timeoutMs / 1000)} s`, "failed")));
    return { response, url };
  }
}
