import type { ModalProps } from "@mantine/core";
import { lazy, Suspense } from "react";

const Modal = lazy(() => import("#mantine/components/Modal/Modal").then((module) => ({ default: module.Modal })));

/**
 * Mantine's Modal, fetched when a dialog is first open: with its focus trap, scroll lock, scroll
 * area and transitions it is ~15 KB gzip that most page loads never show. A dialog open in the
 * server's HTML (`?dialog=…`, JavaScript off too) stays as rendered until the module arrives, then
 * hydrates.
 */
export function LazyModal(props: ModalProps) {
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}
