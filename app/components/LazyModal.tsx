import type { ModalProps } from "@mantine/core";
import { lazyComponent } from "./lazy-component";

const Modal = lazyComponent(
  "mantine/Modal",
  () => import("#mantine/components/Modal/Modal").then((module) => module.Modal),
);

/**
 * Mantine's Modal, fetched when a dialog is first open: with its focus trap, scroll lock, scroll
 * area and transitions it is ~15 KB gzip that most page loads never show.
 */
export function LazyModal(props: ModalProps) {
  if (!props.opened) return null;
  return <Modal {...props} />;
}
