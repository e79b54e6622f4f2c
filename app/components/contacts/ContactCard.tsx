import type { ContactJson } from "~/services/contacts.server";
import { initials } from "../AppShellLayout";
import { truncate } from "../crud/format";
import classes from "../crud/cards.module.css";
import { MailIcon, MapPinIcon, PhoneIcon } from "../crud/icons";
import { ItemActions } from "../crud/ItemActions";
import { useFormat, useT } from "~/utils/i18n";

export const NOTES_PREVIEW_LENGTH = 100;

/** `tel:` wants digits (and a leading +), not the spaces and brackets people type. */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

export function ContactCard({ contact, editTo, deleteTo }: { contact: ContactJson; editTo: string; deleteTo: string }) {
  const t = useT();
  const fmt = useFormat();
  const name = `${contact.firstName} ${contact.lastName}`;
  return (
    <div className={classes.card} role="listitem" aria-label={name} data-testid="contact-card">
      <div className={classes.head}>
        <div className={classes.who}>
          <span className={classes.avatar} aria-hidden="true">
            {initials(contact.firstName, contact.lastName)}
          </span>
          <div style={{ minWidth: 0 }}>
            <p className={classes.name}>{name}</p>
            {contact.companyName && <p className={classes.sub}>{contact.companyName}</p>}
          </div>
        </div>
        <ItemActions name={name} editTo={editTo} deleteTo={deleteTo} />
      </div>

      <div className={classes.rows}>
        <div className={classes.row}>
          <MailIcon size={14} />
          <a className={classes.link} href={`mailto:${contact.email}`}>
            {contact.email}
          </a>
        </div>
        {contact.phone && (
          <div className={classes.row}>
            <PhoneIcon size={14} />
            <a className={classes.link} href={telHref(contact.phone)}>
              {contact.phone}
            </a>
          </div>
        )}
        {contact.address && (
          <div className={classes.row} style={{ alignItems: "flex-start" }}>
            <MapPinIcon size={14} style={{ marginTop: 3 }} />
            <span>{contact.address}</span>
          </div>
        )}
        {contact.notes && (
          <p className={`${classes.dim} ${classes.notes}`} data-testid="contact-notes">
            {truncate(contact.notes, NOTES_PREVIEW_LENGTH)}
          </p>
        )}
      </div>

      {/* Cards in a row share a height (the card is a flex column): the footer sits at the bottom. */}
      <div className={classes.foot}>
        <span>{t("Added")} {fmt.date(contact.createdAt)}</span>
        {contact.owner && <span className={classes.badge}>{t("Owner:")} {contact.owner.name ?? t("Deleted account")}</span>}
      </div>
    </div>
  );
}
