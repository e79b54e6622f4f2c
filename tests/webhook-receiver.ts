import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP receiver for webhook tests and the bench: every request is kept (headers, body,
 * when it arrived), and each path answers as its script says: a list of statuses used in turn (the
 * last one repeats), where "hang" keeps the request open past any timeout.
 */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = number | "hang";

export interface TestReceiver {
  port: number;
  url: (path: string) => string;
  received: Received[];
  /** What `path` answers, in turn (default: 200). */
  script: (path: string, answers: Answer[]) => void;
  on: (path: string) => Received[];
  close: () => Promise<void>;
}

export async function startReceiver({ host = "127.0.0.1" } = {}): Promise<TestReceiver> {
  const received: Received[] = [];
  const scripts = new Map<string, Answer[]>();
  const seen = new Map<string, number>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      const entry = { path, headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
      received.push(entry);
      const answers = scripts.get(path) ?? [200];
      const n = seen.get(path) ?? 0;
      seen.set(path, n + 1);
      const answer = answers[Math.min(n, answers.length - 1)];
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, { "Content-Type": "text/plain" }).end(answer < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `http://${host}:${port}${path}`,
    received,
    script: (path, answers) => scripts.set(path, answers),
    on: (path) => received.filter((r) => r.path === path),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
