/**
 * The idle wait of a polling worker (the job queue, the mail outbox): `sleep(ms)` ends after `ms`, or
 * at once on `wake()` (new work in this process). A wake that comes while the worker is busy is kept
 * in `woken`, so the worker looks again instead of sleeping through it.
 */
export class Doze {
  private wakeUp: (() => void) | null = null;
  woken = false;

  wake() {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Called before each look for work: only wakes after it count. */
  reset() {
    this.woken = false;
  }

  async sleep(ms: number) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = null;
  }
}
