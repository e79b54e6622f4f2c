import cluster from "node:cluster";
import { isRecord } from "./unknown-values";

/**
 * Messages to every process of this app: this one at once, and in production the other cluster
 * workers through the primary (server.mjs relays `{ broadcast }` messages). Used to drop what a
 * worker keeps in memory when another worker changes it in the database.
 */
const handlers = new Map<string, Set<() => void>>();

interface BroadcastMessage {
  broadcast: string;
}
const isBroadcast = (message: unknown): message is BroadcastMessage => isRecord(message) && typeof message.broadcast === "string";

const deliver = (channel: string) => handlers.get(channel)?.forEach((handler) => handler());

if (cluster.isWorker) {
  process.on("message", (message) => {
    if (isBroadcast(message)) deliver(message.broadcast);
  });
}

export function onBroadcast(channel: string, handler: () => void) {
  let set = handlers.get(channel);
  if (!set) handlers.set(channel, (set = new Set()));
  set.add(handler);
}

export function broadcast(channel: string) {
  deliver(channel);
  if (cluster.isWorker && process.connected) process.send?.({ broadcast: channel } satisfies BroadcastMessage);
}
