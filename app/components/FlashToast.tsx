import { Alert } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useRouteLoaderData } from "@remix-run/react";
import { useMounted } from "@mantine/hooks";
import { useEffect } from "react";

export interface ToastData {
  title: string;
  message: string;
  color?: "green" | "red" | "blue" | "yellow";
}

/**
 * Shows a flashed toast. Server-rendered it is an inline banner (all a JS-off kiosk sees);
 * once hydrated it becomes a Mantine notification.
 */
export function FlashToast() {
  const toast = useRouteLoaderData<{ toast: (ToastData & { id: string }) | null }>("root")?.toast ?? null;
  const hydrated = useMounted();
  useEffect(() => {
    if (!toast) return;
    notifications.show({
      id: toast.id,
      title: toast.title,
      message: toast.message,
      color: toast.color ?? "green",
      autoClose: 5000,
    });
  }, [toast]);
  if (!toast || hydrated) return null;
  return (
    <Alert role="status" title={toast.title} color={toast.color ?? "green"} mb="md" data-testid="flash-banner">
      {toast.message}
    </Alert>
  );
}
