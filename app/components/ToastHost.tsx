import { lazy, Suspense, useEffect, useState } from "react";
import { loadNotifications, onNotificationsLoaded } from "./toast";

const Notifications = lazy(() => loadNotifications().then((module) => ({ default: module.Notifications })));

/**
 * The toasts' container, mounted once the first toast has loaded the notifications module (a toast
 * shown before it mounts waits in Mantine's store and appears when it does).
 */
export function ToastHost() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => onNotificationsLoaded(() => setLoaded(true)), []);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      {/* Spec §9: one toast at a time, shown 5000 ms, at most 420 px wide. */}
      <Notifications position="top-right" limit={1} autoClose={5000} containerWidth={420} />
    </Suspense>
  );
}
