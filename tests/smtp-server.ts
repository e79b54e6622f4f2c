import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerSession } from "smtp-server";
import { freePort } from "../app/utils/embedded-db.server";

export interface ReceivedMail {
  raw: Buffer;
  parsed: ParsedMail;
  envelope: { from: string; to: string[] };
}

export interface TestSmtpServer {
  host: string;
  port: number;
  /** Every message the server accepted, in order. */
  received: ReceivedMail[];
  /** Stops listening (the port stays ours: `start()` listens on it again, as a server that was down). */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
  /** Called with each message before it is accepted; may answer with an error (refused) or do something first. */
  onMessage?: (mail: ReceivedMail) => Promise<void> | void;
  /** Messages with this Message-ID. */
  withMessageId(id: string): ReceivedMail[];
  /** Cuts every open connection without a word (a network failure after the message arrived). */
  breakConnections(): void;
}

/**
 * A real SMTP server for tests (the `smtp-server` package, no TLS), reading what arrives with
 * `mailparser`. With `auth`, only that user and password may send (PLAIN/LOGIN).
 */
export async function startSmtpServer({ auth }: { auth?: { user: string; pass: string } } = {}): Promise<TestSmtpServer> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  let server: SMTPServer | null = null;

  const state: TestSmtpServer = {
    host: "127.0.0.1",
    port,
    received,
    async up() {
      if (server) return;
      server = new SMTPServer({
        secure: false,
        disabledCommands: ["STARTTLS"],
        authOptional: !auth,
        allowInsecureAuth: true,
        logger: false,
        // Going "down" drops open connections at once (the app's pooled ones too), like a server that died.
        closeTimeout: 50,
        onAuth(login: SMTPServerAuthentication, _session: SMTPServerSession, callback) {
          if (auth && login.username === auth.user && login.password === auth.pass) return callback(null, { user: login.username });
          return callback(Object.assign(new Error("Authentication failed: bad user name or password"), { responseCode: 535 }));
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            const raw = Buffer.concat(chunks);
            void simpleParser(raw).then(async (parsed) => {
              const mail: ReceivedMail = {
                raw,
                parsed,
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
              };
              try {
                await state.onMessage?.(mail);
              } catch (error) {
                return callback(error as Error);
              }
              received.push(mail);
              callback(null, `Ok: queued as test${received.length}`);
            }, callback);
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        server!.once("error", reject);
        server!.listen(port, "127.0.0.1", () => resolve());
      });
    },
    async down() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async close() {
      await state.down();
    },
    breakConnections() {
      const open = (server as unknown as { connections?: Set<{ _socket?: { destroy(): void } }> } | null)?.connections ?? new Set();
      for (const connection of open) connection._socket?.destroy();
    },
    withMessageId(id: string) {
      return received.filter((m) => m.parsed.messageId === id || `<${m.parsed.messageId}>` === id);
    },
  };
  await state.up();
  return state;
}
