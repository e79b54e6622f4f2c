import { Readable } from "node:stream";

/**
 * Node streams and web streams (what age-encryption reads and writes), each way, with backpressure:
 * a chunk is read from the source only when the other side asks for one.
 */

export function webStreamOf(readable: Readable): ReadableStream<Uint8Array> {
  const chunks: AsyncIterator<Uint8Array> = readable[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      readable.destroy(reason instanceof Error ? reason : undefined);
    },
  });
}

export function nodeStreamOf(stream: ReadableStream<Uint8Array>): Readable {
  const reader = stream.getReader();
  return Readable.from(
    (async function* () {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    })(),
  );
}
