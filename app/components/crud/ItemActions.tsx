import classes from "./cards.module.css";
import { ListIcon } from "./icons";
import { InPageLink } from "./in-page";
import { useT } from "~/utils/i18n";

/** A card's edit and delete buttons: in-page links to `?edit=<id>` / `?delete=<id>` (dialogs by URL). */
export function ItemActions({ name, editTo, deleteTo }: { name: string; editTo: string; deleteTo: string }) {
  const t = useT();
  return (
    <div className={classes.actions}>
      <InPageLink to={editTo} className={classes.action} aria-label={`Edit ${name}`} title={t("Edit")}>
        <ListIcon name="pencil" />
      </InPageLink>
      <InPageLink
        to={deleteTo}
        className={`${classes.action} ${classes.danger}`}
        aria-label={`Delete ${name}`}
        title={t("Delete")}
      >
        <ListIcon name="trash" />
      </InPageLink>
    </div>
  );
}
