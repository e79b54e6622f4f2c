import { lazy, Suspense, useState, type ComponentType } from "react";

const loaders = new Map<string, () => Promise<unknown>>();

/**
 * A component whose code loads when it first renders, for what most visits do not show (dialogs,
 * tabs, later wizard steps). `key` names it in the page (unique per component).
 *
 * Rendered by the server (a dialog open in the URL), it is rendered without a Suspense boundary
 * (the server waits for all of the page anyway) and its code is fetched before the page hydrates
 * (entry.client awaits `preloadServerRendered`, found by the <template> marker): React hydrates a
 * Suspense boundary after the rest, and one that something above re-renders first (Remix does,
 * as it starts) is thrown away and client-rendered (React error 421), losing what the user typed.
 * Only when it first appears in the browser does it wait in a Suspense boundary for its code.
 */
export function lazyComponent<P extends object>(key: string, load: () => Promise<ComponentType<P>>) {
  if (loaders.has(key)) throw new Error(`lazyComponent: "${key}" is already taken`);
  let loaded: ComponentType<P> | undefined;
  const preload = () => load().then((component) => (loaded = component));
  loaders.set(key, preload);
  // The lazy part takes the props whole (`props={…}`): React 18's types cannot spread a generic P
  // into a lazy component, and a concrete props type needs no cast.
  const Lazy = lazy(async () => {
    const Loaded = await preload();
    return { default: ({ props }: { props: P }) => <Loaded {...props} /> };
  });
  function LazyComponent(props: P) {
    // Decided once per mount: switching between the two would remount the component.
    const [suspend] = useState(() => typeof document !== "undefined" && !loaded);
    const Loaded = loaded;
    return (
      <>
        <template data-lazy={key} />
        {suspend ? (
          <Suspense fallback={null}>
            <Lazy props={props} />
          </Suspense>
        ) : Loaded ? (
          <Loaded {...props} />
        ) : (
          <Lazy props={props} />
        )}
      </>
    );
  }
  LazyComponent.displayName = `Lazy(${key})`;
  return LazyComponent;
}

/**
 * For entry.client: loads the code of every lazy component the server rendered into this page.
 * One lazy component can render another (the upload dialog's LazyModal): the inner one's loader is
 * registered only when the outer one's code has run, which depends on how the build groups the
 * chunks, so it loads in rounds until no marked loader is left. A marker whose loader never
 * appears would leave that part to hydrate through Suspense (a mismatch, React error 418).
 */
export async function preloadServerRendered() {
  const pending = new Set([...document.querySelectorAll("template[data-lazy]")].map((el) => el.getAttribute("data-lazy") ?? ""));
  for (;;) {
    const ready = [...pending].filter((key) => loaders.has(key));
    if (ready.length === 0) return;
    for (const key of ready) pending.delete(key);
    await Promise.all(ready.map((key) => loaders.get(key)!()));
  }
}
