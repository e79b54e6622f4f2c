import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { OutboundRefusedError, resolveOutbound, type OutboundAllowList } from "~/utils/outbound.server";
import { errorCode } from "~/utils/db-errors.server";

// One webhook delivery's HTTP request (the worker: webhook-delivery.server.ts).

const MAX_RESPONSE_BYTES = 64 * 1024;

/** Connections per receiver (host and port) at once; deliveries beyond wait for one, within their timeout. */
const SOCKETS_PER_HOST = 64;
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST }),
};

/** Answered by the receiver (any status), or an error without one. */
export type Outcome = { statusCode: number } | { error: string };

/**
 * One POST through the outbound rule: the host is resolved and checked here, and the connection
 * goes to the checked address (the lookup answers it; the TLS name stays the host). No redirects.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, { timeoutMs, allow }: { timeoutMs: number; allow: OutboundAllowList }): Promise<Outcome> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
  let checked: { address: string; family: number };
  try {
    checked = await resolveOutbound(host, allow);
  } catch (error) {
    if (error instanceof OutboundRefusedError) return { error: error.message };
    return { error: `Could not resolve ${host}: ${errorCode(error) ?? String(error)}` };
  }
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [checked]);
    else callback(null, checked.address, checked.family);
  };
  const client = target.protocol === "https:" ? https : http;
  return new Promise<Outcome>((resolve) => {
    const request = client.request(
      target,
      {
        method: "POST",
        agent: target.protocol === "https:" ? agents["https:"] : target.protocol === "http:" ? agents["http:"] : undefined,
        lookup,
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          // What the receiver says is not kept; a huge answer is not read to its end.
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () => {
          clearTimeout(timer);
          resolve({ statusCode: response.statusCode ?? 0 });
        };
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    // The timeout counts from here, a wait for a free connection included, so an attempt never outlives its lease.
    let sent = false;
    request.once("socket", () => (sent = true));
    const timer = setTimeout(() => {
      const message = sent ? `No answer within ${timeoutMs} ms` : `Not sent within ${timeoutMs} ms: every connection to this host was busy`;
      request.destroy(Object.assign(new Error(message), { code: "ETIMEDOUT" }));
    }, timeoutMs);
    request.on("error", (error: Error & { code?: string }) => {
      clearTimeout(timer);
      resolve({ error: error.code === "ETIMEDOUT" ? error.message : `${error.code ?? "Error"}: ${error.message}` });
    });
    request.end(body);
  });
}
