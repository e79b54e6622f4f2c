import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode, useEffect, type ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { preloadServerRendered } from "~/components/lazy-component";

/**
 * Marks the moment the page is interactive: an effect runs after the hydrated tree's, so the
 * "hydrated" user-timing mark is when React has attached every handler (bench/throttled-walk.mjs,
 * Lighthouse's user timings).
 */
function MarkHydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    performance.mark("hydrated");
  }, []);
  return children;
}

// Remix's default entry, after the code of the lazy components the server rendered (an open
// dialog): see components/lazy-component.tsx. A chunk that fails to load leaves that part to the
// Suspense boundary; the page hydrates either way.
void preloadServerRendered()
  .catch(() => undefined)
  .then(() => {
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <MarkHydrated>
            <RemixBrowser />
          </MarkHydrated>
        </StrictMode>,
      );
    });
  });
