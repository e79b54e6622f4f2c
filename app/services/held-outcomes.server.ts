import { log } from "~/utils/log.server";

/**
 * What a mail server answered that the database could not take yet (docs/decisions/0054): the
 * worker keeps it in memory and writes it again every `retryMs` until the database answers, so an
 * email the server accepted while the database was away ends `sent`, once, and is never sent again.
 *
 * Bounded: past `limit` held outcomes a new one is refused (false) and left to recovery, which
 * settles it `unknown` (the dealer is asked; nothing is resent blindly). Lost with the process for
 * the same reason: recovery settles what a dead worker held.
 */
export interface HeldOutcomesOptions<T> {
  /** Writes one outcome: true or false once the database answered (written, or no longer ours), throws while it is away. */
  write: (outcome: T) => Promise<unknown>;
  /** Held outcomes at most; 1,000 by default. */
  limit?: number;
  /** How long between two tries; 500 ms by default. */
  retryMs?: number;
  label?: string;
}

/** Every held id of this process: recovery leaves them alone (the worker that holds them writes them). */
const heldHere = new Map<string, number>();

/** True when a worker of this process holds the outcome of this id (recovery must not settle it). */
export const isHeldHere = (id: string) => (heldHere.get(id) ?? 0) > 0;

export class HeldOutcomes<T> {
  private readonly held = new Map<string, T>();
  private readonly options: Required<Omit<HeldOutcomesOptions<T>, "label">> & { label: string };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<number> | null = null;

  constructor(options: HeldOutcomesOptions<T>) {
    this.options = { limit: 1_000, retryMs: 500, label: "held outcomes", ...options };
  }

  get size() {
    return this.held.size;
  }

  has(id: string) {
    return this.held.has(id);
  }

  /** Keeps `outcome` until it is written; false when `limit` outcomes are held already (then recovery settles it). */
  hold(id: string, outcome: T) {
    if (!this.held.has(id)) {
      if (this.held.size >= this.options.limit) {
        log.warn({ id, held: this.held.size }, `${this.options.label}: too many outcomes held, this one is left to recovery`);
        return false;
      }
      heldHere.set(id, (heldHere.get(id) ?? 0) + 1);
    }
    this.held.set(id, outcome);
    this.schedule();
    return true;
  }

  /** Tries every held outcome once; answers how many were written (or found no longer ours). */
  flush(): Promise<number> {
    this.flushing ??= this.writeAll().finally(() => {
      this.flushing = null;
      this.schedule();
    });
    return this.flushing;
  }

  /** Stops retrying; what is still held is dropped (recovery settles it) and answered. */
  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const dropped = [...this.held.keys()];
    for (const id of dropped) this.release(id);
    if (dropped.length > 0) log.warn({ ids: dropped }, `${this.options.label}: stopped with outcomes not written; recovery settles them`);
    return dropped;
  }

  private release(id: string) {
    if (!this.held.delete(id)) return;
    const n = (heldHere.get(id) ?? 1) - 1;
    if (n > 0) heldHere.set(id, n);
    else heldHere.delete(id);
  }

  private async writeAll() {
    let written = 0;
    for (const [id, outcome] of [...this.held]) {
      try {
        await this.options.write(outcome);
      } catch {
        // The database is still away: the next try (the others would fail the same way).
        break;
      }
      this.release(id);
      written += 1;
    }
    return written;
  }

  private schedule() {
    if (this.timer || this.flushing || this.held.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.retryMs);
    this.timer.unref?.();
  }
}
