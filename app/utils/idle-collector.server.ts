import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

/**
 * Gives back what a burst of background work (a thousand emails with their PDFs) left behind. V8
 * collects when allocation needs room, so a process that goes quiet right after such a burst keeps
 * its garbage, and the memory the heap grew for it, until the next one: 70–150 MB on `bench/email`.
 * Once the work has asked for it (`collectWhenIdle`), the process has been idle for a whole check
 * (its event loop under IDLE_UTILIZATION busy) and the heap holds GROWTH_BYTES more than after the
 * last full collection, it runs one. Web traffic does not ask: a collection shrinks the heap, and the
 * next requests pay for growing it again (docs/decisions/0015).
 */
const CHECK_MS = 5_000;
const IDLE_UTILIZATION = 0.05;
const GROWTH_BYTES = 32 * 1024 * 1024;

let wanted = false;

/** A burst of background work has ended: collect its garbage once the process is idle. */
export function collectWhenIdle() {
  wanted = true;
}

/** Whether to collect now (pure: the figures of the last check). */
export function shouldCollect({ wanted, utilization, heapUsed, afterLastCollection }: { wanted: boolean; utilization: number; heapUsed: number; afterLastCollection: number }) {
  return wanted && utilization < IDLE_UTILIZATION && heapUsed - afterLastCollection >= GROWTH_BYTES;
}

/** V8's own full collection, exposed at run time (Node offers it only behind a start-up flag). */
function fullCollection() {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  // The second one moves what the first left scattered, so whole pages go back to the system.
  return () => {
    gc();
    gc();
  };
}

/** Starts the checks (unref'd: they never keep the process alive); returns their stop. */
export function startIdleCollector() {
  const collect = fullCollection();
  let afterLastCollection = process.memoryUsage().heapUsed;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    const { heapUsed } = process.memoryUsage();
    // The heap also shrinks by V8's own collections: the baseline follows it down.
    afterLastCollection = Math.min(afterLastCollection, heapUsed);
    if (!shouldCollect({ wanted, utilization, heapUsed, afterLastCollection })) return;
    wanted = false;
    collect();
    afterLastCollection = process.memoryUsage().heapUsed;
    last = performance.eventLoopUtilization();
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
