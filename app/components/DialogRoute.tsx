import type { ModalProps } from "@mantine/core";
import { LazyModal } from "./LazyModal";
import { useNavigate } from "@remix-run/react";
import { useEffect, type MouseEvent, type ReactNode } from "react";
import { useT } from "~/utils/i18n";

/**
 * Where focus goes when a dialog addressed by URL closes: back to what opened it (the link is
 * still on the page after the navigation), else to the page's main content.
 */
function useFocusReturn() {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    return () => {
      // After the navigation that closed the dialog has rendered the page without it.
      setTimeout(() => {
        if (document.activeElement && document.activeElement !== document.body) return;
        const target = opener?.isConnected ? opener : document.querySelector<HTMLElement>("main");
        if (target === document.querySelector("main")) target?.setAttribute("tabindex", "-1");
        target?.focus({ preventScroll: opener?.isConnected ?? false });
      }, 0);
    };
  }, []);
}

/**
 * A dialog addressed by URL (e.g. `?dialog=new`): rendered on the server inside the page
 * (no portal), so it shows with JavaScript off; closing navigates to `closeTo`. Without
 * JavaScript its name is its title (aria-label: Mantine links the title only after hydration)
 * and its × is a plain link to `closeTo`.
 */
export function DialogRoute({
  title,
  closeTo,
  children,
  onClose,
  size = "lg",
  ...props
}: { title: string; closeTo: string; children: ReactNode; onClose?: () => void } & Partial<Omit<ModalProps, "title" | "onClose" | "opened">>) {
  const navigate = useNavigate();
  const t = useT();
  useFocusReturn();
  return (
    <LazyModal
      opened
      onClose={onClose ?? (() => navigate(closeTo, { preventScrollReset: true }))}
      title={title}
      withinPortal={false}
      size={size}
      transitionProps={{ duration: 0 }}
      // Both reach Mantine's elements (the dialog's <section>, the CloseButton, polymorphic) but
      // are not in Modal's prop types.
      {...({ attributes: { content: { "aria-label": title } } } as object)}
      closeButtonProps={
        {
          component: "a",
          href: closeTo,
          // With JavaScript the dialog's onClose navigates; the link is for a page without it.
          onClick: (event: MouseEvent) => event.preventDefault(),
          "aria-label": t("Close"),
        } as ModalProps["closeButtonProps"]
      }
      {...props}
    >
      {children}
    </LazyModal>
  );
}
