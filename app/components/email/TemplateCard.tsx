import { Form, Link } from "@remix-run/react";
import { TEMPLATE_PREVIEW_CHARS } from "~/schemas/email-display";
import type { EmailTemplateJson } from "~/services/email-templates.server";
import classes from "../crud/cards.module.css";
import { plainText, truncate } from "../crud/format";
import { EyeIcon, FileIcon, PencilIcon, TrashIcon } from "../crud/icons";
import { useFormat, useT } from "~/utils/i18n";

/** One template (spec §2): name, Default badge, subject, the first 150 characters, created date; view, edit, copy, delete. */
export function TemplateCard({ template, hrefWith }: { template: EmailTemplateJson; hrefWith: (changes: Record<string, string>) => string }) {
  const tr = useT();
  const fmt = useFormat();
  const t = template;
  return (
    <div className={classes.card} role="listitem" aria-label={t.name} data-testid="template-card">
      <div className={classes.head}>
        <div style={{ minWidth: 0 }}>
          <p className={classes.name}>
            {t.name}{" "}
            {t.isDefault && (
              <span className={classes.badge} data-testid="default-badge">
                {tr("Default")}
              </span>
            )}
          </p>
          <p className={classes.sub}>{t.subject}</p>
        </div>
        <div className={classes.actions}>
          <Link to={hrefWith({ view: t.id })} preventScrollReset className={classes.action} aria-label={`View ${t.name}`} title={tr("View")}>
            <EyeIcon size={16} />
          </Link>
          <Link to={hrefWith({ edit: t.id })} preventScrollReset className={classes.action} aria-label={`Edit ${t.name}`} title={tr("Edit")}>
            <PencilIcon size={16} />
          </Link>
          <Form method="post" preventScrollReset style={{ display: "inline-flex" }}>
            <input type="hidden" name="intent" value="copy" />
            <input type="hidden" name="id" value={t.id} />
            <button type="submit" className={`${classes.action} ${classes.plain}`} aria-label={`Copy ${t.name}`} title={tr("Copy")}>
              <FileIcon size={16} />
            </button>
          </Form>
          <Link
            to={hrefWith({ delete: t.id })}
            preventScrollReset
            className={`${classes.action} ${classes.danger}`}
            aria-label={`Delete ${t.name}`}
            title={tr("Delete")}
          >
            <TrashIcon size={16} />
          </Link>
        </div>
      </div>
      <p className={classes.dim} style={{ marginTop: 8, wordBreak: "break-word" }} data-testid="template-content">
        {truncate(plainText(t.htmlContent), TEMPLATE_PREVIEW_CHARS)}
      </p>
      <p className={classes.dim} style={{ marginTop: 8 }}>
        {tr("Created")} {fmt.date(t.createdAt)}
      </p>
    </div>
  );
}
