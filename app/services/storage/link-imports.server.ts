import { randomBytes } from "node:crypto";
import { z } from "zod";
import { cancelLinkImport, createLinkImport, deleteLinkImportsBefore, finishLinkImport, readLinkImport, recordLinkImportProgress } from "~/models/link-import.server";
import { isRefusal, refusalMessage } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";
import type { Actor } from "../actor";
import { absolute, mediaUrl } from "./names.server";
import { importFromUrl, type ImportFromUrl } from "./remote-import.server";
import { uploadJson } from "./uploads.server";

/**
 * The upload widget's remote files (the Companion protocol, decision 0068): `url/get` starts an import
 * and answers a token; the widget opens a websocket at `/api/uploads/api/<token>` and is told
 * `progress`, then `success` or `error`. The import runs in the instance that took `url/get`; its state
 * is kept in the database, so the socket may be on any instance.
 */

/** The spec's progress refresh (§9: 500 ms): how often progress is written, and how often a socket looks. */
export const PROGRESS_INTERVAL_MS = 500;
/** Imports are kept a day after they started (housekeeping), long after any socket. */
const KEPT_MS = 24 * 60 * 60 * 1000;

/** `POST url/get`: starts the import in the background; answers the socket's token. */
export async function startLinkImport(actor: Actor, input: ImportFromUrl, origin: string) {
  const token = randomBytes(24).toString("hex");
  await createLinkImport(token, actor.id);
  const controller = new AbortController();
  let lastWrite = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const onBytes = (bytes: number, total: number | null) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_INTERVAL_MS) return;
    lastWrite = now;
    // One write at a time; a cancelled import (the widget's `cancel`) stops the download.
    writing = writing
      .then(() => recordLinkImportProgress(token, bytes, total))
      .then((running) => {
        if (!running) controller.abort();
      })
      .catch(() => {});
  };
  void (async () => {
    try {
      const record = await importFromUrl(actor, input, { onBytes, signal: controller.signal });
      await writing;
      const answer = { ...uploadJson(record), location: absolute(mediaUrl(String(record._id)), origin) };
      await recordLinkImportProgress(token, record.size ?? 0, record.size ?? 0);
      await finishLinkImport(token, { result: JSON.stringify(answer) });
    } catch (error) {
      await writing;
      if (!isRefusal(error)) log.error({ err: error, token }, "a link import failed");
      const message = isRefusal(error) ? await refusalMessage(error) : "Failed to import the file from the link";
      await finishLinkImport(token, { error: message }).catch(() => {});
    }
  })();
  return token;
}

/** What the websocket needs of its connection (server.mjs gives a `ws` socket). */
export interface RemoteSocket {
  send(text: string): void;
  close(): void;
  on(event: "message", listener: (data: unknown) => void): void;
  on(event: "close", listener: () => void): void;
}

const clientMessage = z.object({ action: z.string() });
const storedAnswer = z.object({ location: z.string() });

const message = (action: "progress" | "success" | "error", payload: unknown) => JSON.stringify({ action, payload });

/**
 * Follows the import behind `token` for one websocket: progress while it runs (whenever it changed),
 * then success (the upload's answer as the widget expects it from Companion) or error, and closes.
 * The widget's `cancel` cancels the import; `pause` and `resume` are not offered (a link is fetched whole).
 */
export function followLinkImport(socket: RemoteSocket, token: string) {
  let open = true;
  let sent = "";
  socket.on("close", () => (open = false));
  socket.on("message", (data) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return; // not a message of the protocol
    }
    if (clientMessage.safeParse(parsed).data?.action === "cancel") void cancelLinkImport(token).catch(() => {});
  });
  const finish = (text: string) => {
    socket.send(text);
    open = false;
    socket.close();
  };
  const look = async () => {
    if (!open) return;
    const state = await readLinkImport(token).catch(() => undefined);
    if (!open) return;
    if (state === undefined) return void setTimeout(look, PROGRESS_INTERVAL_MS);
    if (!state) return finish(message("error", { error: { message: "Upload not found" } }));
    const total = state.total ?? state.bytes;
    const progress = message("progress", {
      progress: total > 0 ? ((state.bytes / total) * 100).toFixed(2) : "0.00",
      bytesUploaded: state.bytes,
      bytesTotal: total,
    });
    if (progress !== sent) {
      socket.send(progress);
      sent = progress;
    }
    if (state.state === "done" && state.result) {
      const answer = storedAnswer.parse(JSON.parse(state.result));
      return finish(message("success", { url: answer.location, response: { status: 200, responseText: state.result } }));
    }
    if (state.state === "failed" || state.state === "cancelled") {
      return finish(message("error", { error: { message: state.error ?? "The import was cancelled" } }));
    }
    setTimeout(look, PROGRESS_INTERVAL_MS);
  };
  void look();
}

/** Housekeeping: imports started more than a day ago. */
export async function sweepLinkImports(now = new Date()) {
  await deleteLinkImportsBefore(new Date(now.getTime() - KEPT_MS));
}
