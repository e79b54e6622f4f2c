import { lazy, Suspense, type ComponentType } from "react";

const loaders = new Map<string, () => Promise<unknown>>();

/**
 * A component whose code loads when it first renders, for what most visits do not show (dialogs,
 * tabs, later wizard steps). When the server rendered it (a dialog open in the URL), its code is
 * fetched before the page hydrates (entry.client awaits `preloadServerRendered`): a Suspense
 * boundary still waiting for code while something above it re-renders is thrown away and
 * client-rendered (React error 421), losing the server's HTML and what the user typed. `key`
 * names it in the page (unique per component).
 */
export function lazyComponent<P extends object>(key: string, load: () => Promise<ComponentType<P>>) {
  if (loaders.has(key)) throw new Error(`lazyComponent: "${key}" is already taken`);
  let loaded: ComponentType<P> | undefined;
  const preload = () => load().then((component) => (loaded = component));
  loaders.set(key, preload);
  const Lazy = lazy(async () => ({ default: await preload() }));
  function LazyComponent(props: P) {
    const Component = (loaded ?? Lazy) as ComponentType<P>;
    return (
      <>
        <template data-lazy={key} />
        <Suspense fallback={null}>
          <Component {...props} />
        </Suspense>
      </>
    );
  }
  LazyComponent.displayName = `Lazy(${key})`;
  return LazyComponent;
}

/** For entry.client: loads the code of every lazy component the server rendered into this page. */
export function preloadServerRendered() {
  const keys = [...document.querySelectorAll("template[data-lazy]")].map((el) => el.getAttribute("data-lazy") ?? "");
  return Promise.all(keys.map((key) => loaders.get(key)?.()));
}
