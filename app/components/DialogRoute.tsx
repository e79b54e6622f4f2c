import { LazyModal } from "./LazyModal";
import { useNavigate } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A dialog addressed by URL (e.g. `?dialog=new`): rendered on the server inside the page
 * (no portal), so it shows with JavaScript off; closing navigates to `closeTo`.
 */
export function DialogRoute({ title, closeTo, children }: { title: string; closeTo: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <LazyModal
      opened
      onClose={() => navigate(closeTo, { preventScrollReset: true })}
      title={title}
      withinPortal={false}
      size="lg"
      transitionProps={{ duration: 0 }}
    >
      {children}
    </LazyModal>
  );
}
