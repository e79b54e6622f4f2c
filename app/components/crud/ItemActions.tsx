import { Link } from "@remix-run/react";
import classes from "./cards.module.css";
import { PencilIcon, TrashIcon } from "./icons";
import { useT } from "~/utils/i18n";

/** A card's edit and delete buttons: links to `?edit=<id>` / `?delete=<id>` (dialogs by URL). */
export function ItemActions({ name, editTo, deleteTo }: { name: string; editTo: string; deleteTo: string }) {
  const t = useT();
  return (
    <div className={classes.actions}>
      <Link to={editTo} preventScrollReset className={classes.action} aria-label={`Edit ${name}`} title={t("Edit")}>
        <PencilIcon size={16} />
      </Link>
      <Link
        to={deleteTo}
        preventScrollReset
        className={`${classes.action} ${classes.danger}`}
        aria-label={`Delete ${name}`}
        title={t("Delete")}
      >
        <TrashIcon size={16} />
      </Link>
    </div>
  );
}
