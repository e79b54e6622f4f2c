import { afterEach, describe, expect, it } from "vitest";
import { lazyComponent, preloadServerRendered } from "./lazy-component";

// The page's <template data-lazy> markers, as the server rendered them (the tests run without a DOM).
function serverRendered(keys: string[]) {
  const markers = keys.map((key) => ({ getAttribute: () => key }));
  (globalThis as { document?: unknown }).document = { querySelectorAll: () => markers };
}

afterEach(() => {
  delete (globalThis as { document?: unknown }).document;
});

describe("preloadServerRendered", () => {
  it("loads a server-rendered lazy component that another one's code registers (the upload dialog's modal)", async () => {
    const loaded: string[] = [];
    const Inner = () => null;
    // The outer component's code is what registers the inner one, as when the inner one's module
    // is in the outer one's chunk and nowhere the page loads at first.
    lazyComponent("test/Outer", async () => {
      await new Promise((resolve) => setTimeout(resolve, 0)); // its chunk being fetched
      loaded.push("outer");
      lazyComponent("test/Inner", async () => {
        loaded.push("inner");
        return Inner;
      });
      return () => null;
    });
    serverRendered(["test/Outer", "test/Inner"]);

    await preloadServerRendered();

    expect(loaded).toEqual(["outer", "inner"]);
  });
});
