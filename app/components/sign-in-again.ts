import { LOGGED_OUT_TOAST } from "~/schemas/logged-out";
import { loadNotifications, showToast } from "./toast";

// Apart from toast.ts, which every page's shell loads: only the pages that make calls of their own need it.
/**
 * A call from the page found the session ended (a 401): the spec's toast, then the sign-in
 * (`/api/login`) half a second after the toast is on screen — the first toast fetches its module,
 * which on a slow line can take longer than that. Returns a cancel for a page that goes away first.
 */
export function signInAgain() {
  showToast(LOGGED_OUT_TOAST);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  void loadNotifications().then(() => {
    if (!cancelled) timer = setTimeout(() => window.location.assign("/api/login"), 500);
  });
  return () => {
    cancelled = true;
    if (timer) clearTimeout(timer);
  };
}
