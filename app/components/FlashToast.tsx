import { Alert } from "#mantine/components/Alert/Alert";
import { useRouteLoaderData } from "@remix-run/react";
import { useMounted } from "@mantine/hooks";
import { useEffect } from "react";
import type { ToastOptions } from "~/schemas/toasts";
import { showToast } from "./toast";

/**
 * Shows a flashed toast. Server-rendered it is an inline banner (all a JS-off kiosk sees);
 * once hydrated it becomes a Mantine notification.
 */
export function FlashToast() {
  const toast = useRouteLoaderData<{ toast: (ToastOptions & { id: string }) | null }>("root")?.toast ?? null;
  const hydrated = useMounted();
  useEffect(() => {
    if (!toast) return;
    showToast(toast);
  }, [toast]);
  if (!toast || hydrated) return null;
  return (
    <Alert role="status" title={toast.title} color={toast.color ?? "green"} mb="md" data-testid="flash-banner">
      {toast.message}
    </Alert>
  );
}
