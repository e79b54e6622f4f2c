import { createContext, useContext, useState } from "react";

/** The id of the request a page was rendered for (X-Request-Id): the server's render provides it. */
export const RequestIdContext = createContext<string | undefined>(undefined);

// In the browser the id is only known for the page the server rendered: it is read once from that
// page, so hydration shows the same text and no later page claims an id that is not its own.
let renderedId: string | undefined | null = null;
function takeRenderedId() {
  if (renderedId !== null || typeof document === "undefined") return undefined;
  renderedId = document.querySelector("[data-request-id]")?.getAttribute("data-request-id") ?? undefined;
  return renderedId;
}

/** The current request's id on the server; in the browser, the server-rendered page's (once). */
export function useRequestId() {
  const fromServer = useContext(RequestIdContext);
  const [id] = useState(() => fromServer ?? takeRenderedId());
  return id;
}
