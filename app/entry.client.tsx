import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { preloadServerRendered } from "~/components/lazy-component";

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
          <RemixBrowser />
        </StrictMode>,
      );
    });
  });
