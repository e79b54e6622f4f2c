import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for an OpenAI-compatible server: `POST /v1/chat/completions` on 127.0.0.1 and a
 * free port, answering as the API does (id, object, created, model, choices[0].message.content,
 * usage). Each test scripts the answers in order; once the script is used up, `fallback` answers.
 * Every request is recorded (its JSON body) so a test can check what was sent.
 */

export interface ScriptedAnswer {
  /** The message content, serialised as JSON. */
  json?: unknown;
  /** The message content as it is (a code fence, invalid JSON…). */
  content?: string;
  /** An error status instead of an answer (429, 500…), with OpenAI's error body. */
  status?: number;
  /** Extra response headers (e.g. `retry-after-ms` for a 429). */
  headers?: Record<string, string>;
  /** Wait this long before answering (longer than the client's timeout: a timeout). */
  delayMs?: number;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: {
    model?: string;
    messages?: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
    response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
    [key: string]: unknown;
  };
}

/** A valid answer with no damage found. */
export const NO_DAMAGE = { damages: [], summary: "No damage visible.", confidence: 0.9 };
/** One moderate dent on the first photo: what the browser walks' provider sees. */
export const FRONT_BUMPER_DENT = {
  damages: [{ damageType: "dent", location: "front", severity: "moderate", description: "Dent in the front bumper", confidence: 0.86, photo: 1 }],
  summary: "A moderate dent in the front bumper.",
  confidence: 0.86,
};

export interface OpenAiTestServer {
  /** The base URL to give the client (`http://127.0.0.1:<port>/v1`). */
  baseURL: string;
  requests: RecordedRequest[];
  /** Queues answers for the next requests, in order. */
  script(...answers: ScriptedAnswer[]): void;
  /** What answers once the script is used up. */
  fallback: ScriptedAnswer;
  /** Added to every answer's delay (the bench's "a provider that takes 2 s"). */
  fixedDelayMs: number;
  /** Requests being answered right now, and the most at once so far. */
  inFlight: number;
  maxInFlight: number;
  /** The image URLs of a recorded request, in order. */
  imagesOf(request: RecordedRequest): string[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage) {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

export async function startOpenAiTestServer(): Promise<OpenAiTestServer> {
  const queue: ScriptedAnswer[] = [];
  let counter = 0;

  const state: OpenAiTestServer = {
    baseURL: "",
    requests: [],
    script: (...answers) => void queue.push(...answers),
    fallback: { json: NO_DAMAGE },
    fixedDelayMs: 0,
    inFlight: 0,
    maxInFlight: 0,
    imagesOf: (request) =>
      (request.body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).flatMap((part) => (part.image_url ? [part.image_url.url] : [])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      return send(res, 404, { error: { message: `Unknown route ${req.method} ${req.url}`, type: "invalid_request_error" } });
    }
    let body: RecordedRequest["body"];
    try {
      body = JSON.parse(await readBody(req)) as RecordedRequest["body"];
    } catch {
      return send(res, 400, { error: { message: "We could not parse the JSON body of your request.", type: "invalid_request_error" } });
    }
    state.requests.push({ path: req.url, headers: req.headers, body });
    const answer = queue.shift() ?? state.fallback;
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      const delay = state.fixedDelayMs + (answer.delayMs ?? 0);
      if (delay > 0) {
        // A client that gave up (its timeout) closes the socket: stop waiting for it.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          res.once("close", () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      if (answer.status && answer.status >= 400) {
        const type = answer.status === 429 ? "rate_limit_exceeded" : "server_error";
        const headers = answer.status === 429 ? { "retry-after-ms": "20", ...answer.headers } : answer.headers;
        return send(res, answer.status, { error: { message: `Scripted ${answer.status}`, type, code: type } }, headers);
      }
      const content = answer.content ?? JSON.stringify(answer.json ?? NO_DAMAGE);
      counter++;
      send(
        res,
        200,
        {
          id: `chatcmpl-test-${counter}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model ?? "test-model",
          choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
          usage: { prompt_tokens: 100, completion_tokens: Math.ceil(content.length / 4), total_tokens: 100 + Math.ceil(content.length / 4) },
        },
        answer.headers,
      );
    } finally {
      state.inFlight--;
    }
  });
  // Keep-alive sockets of a client that went away must not hold the server open.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
