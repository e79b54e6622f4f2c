import { Link } from "@remix-run/react";
import classes from "./cards.module.css";
import { PencilIcon, TrashIcon } from "./icons";

/** A card's edit and delete buttons: links to `?edit=<id>` / `?delete=<id>` (dialogs by URL). */
export function ItemActions({ name, editTo, deleteTo }: { name: string; editTo: string; deleteTo: string }) {
  return (
    <div className={classes.actions}>
      <Link to={editTo} preventScrollReset className={classes.action} aria-label={`Edit ${name}`} title="Edit">
        <PencilIcon size={16} />
      </Link>
      <Link
        to={deleteTo}
        preventScrollReset
        className={`${classes.action} ${classes.danger}`}
        aria-label={`Delete ${name}`}
        title="Delete"
      >
        <TrashIcon size={16} />
      </Link>
    </div>
  );
}
