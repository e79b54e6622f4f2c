import { Text } from "#mantine/components/Text/Text";
import type { ReactNode } from "react";
import { DialogRoute } from "../DialogRoute";
import { ConfirmDelete } from "./ConfirmDelete";
import type { ListDialog } from "~/utils/list-url";
import { useT } from "~/utils/i18n";

/**
 * The one dialog a list screen's URL may open (`?dialog=new`, `?edit=<id>`, `?delete=<id>`):
 * the domain's form for add and edit, the confirmation before a delete, "<Noun> not found." for
 * an item that is gone or not the caller's.
 */
export function ListDialogs<Item extends { id: string }>({
  dialog,
  noun,
  item,
  closeTo,
  renderForm,
  deleteQuestion,
}: {
  dialog: ListDialog;
  /** Capitalised, as in the titles: "Contact". */
  noun: string;
  item: Item | null;
  closeTo: string;
  renderForm: (item?: Item) => ReactNode;
  deleteQuestion: (item: Item) => string;
}) {
  const t = useT();
  if (!dialog) return null;
  const notFound = <Text>{noun} {t("not found.")}</Text>;
  if (dialog.kind === "new") {
    return (
      <DialogRoute title={t("Add {{noun}}", { noun })} closeTo={closeTo}>
        {renderForm()}
      </DialogRoute>
    );
  }
  if (dialog.kind === "edit") {
    return (
      <DialogRoute title={t("Edit {{noun}}", { noun })} closeTo={closeTo}>
        {item ? renderForm(item) : notFound}
      </DialogRoute>
    );
  }
  return (
    <DialogRoute title={t("Delete {{noun}}", { noun })} closeTo={closeTo}>
      {item ? <ConfirmDelete id={item.id} question={deleteQuestion(item)} cancelTo={closeTo} /> : notFound}
    </DialogRoute>
  );
}
