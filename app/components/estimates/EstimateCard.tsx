import { STATUS_COLOR } from "~/schemas/assessment-status";
import type { AssessmentJson } from "~/services/assessments.server";
import type { EstimateCardJson } from "~/services/estimates.server";
import classes from "../crud/cards.module.css";
import { InPageForm, InPageLink } from "../crud/in-page";
import { ListIcon } from "../crud/icons";
import { humanize } from "../training/labels";
import { useFormat, useT } from "~/utils/i18n";
import { versionLabel } from "~/schemas/version-label";
import { partlyApproved } from "~/utils/approved-total";

/** Damage-category badges on a card (spec §9); the rest reads "+N more". */
export const MAX_CARD_CATEGORIES = 3;
export const NO_CONTACT_MESSAGE = "No Contact: Please assign a contact to this assessment first";

export const pdfHref = (id: string) => `/api/assessments/${id}/estimate.pdf`;
export const vehicleOf = (a: Pick<AssessmentJson, "vehicleYear" | "vehicleMake" | "vehicleModel">) =>
  [a.vehicleYear, a.vehicleMake, a.vehicleModel].filter(Boolean).join(" ");
export const contactName = (a: Pick<AssessmentJson, "contact">) =>
  a.contact ? `${a.contact.firstName} ${a.contact.lastName}` : "Unknown contact";

/** The Email action: a form post (the toast says what happened); disabled, with the spec's message, without a contact. */
export function EmailButton({ estimate, className, action }: { estimate: Pick<AssessmentJson, "id" | "title" | "contactId">; className: string; action: string }) {
  const t = useT();
  const disabled = !estimate.contactId;
  return (
    <InPageForm action={action} style={{ display: "inline-flex" }}>
      <input type="hidden" name="intent" value="email" />
      <input type="hidden" name="id" value={estimate.id} />
      <button
        type="submit"
        className={className}
        disabled={disabled}
        aria-label={`Email ${estimate.title}`}
        title={disabled ? t(NO_CONTACT_MESSAGE) : t("Email")}
      >
        <ListIcon name="mail" />
      </button>
    </InPageForm>
  );
}

/**
 * One estimate (spec §2): title, status, vehicle, customer, cost or TBD, created date, up to three
 * category badges then "+N more"; view, download, email, edit and delete. Plain elements (see
 * cards.module.css) and in-page links and forms (crud/in-page): a page renders 24 of them. `formAction`
 * is the screen's own (useFormAction).
 */
export function EstimateCard({
  estimate,
  hrefWith,
  formAction,
}: {
  estimate: EstimateCardJson;
  hrefWith: (changes: Record<string, string>) => string;
  formAction: string;
}) {
  const t = useT();
  const fmt = useFormat();
  const a = estimate;
  // An approval without some optional lines says what it approved, beside the estimate's own total.
  const part = a.customerDecision ? partlyApproved(a.customerDecision, a.estimatedCost) : null;
  const extra = a.damageCategories.length - MAX_CARD_CATEGORIES;
  const action = `${classes.action} ${classes.plain}`;
  return (
    <div className={classes.card} role="listitem" aria-label={a.title} data-testid="estimate-card">
      <div className={classes.head}>
        <div style={{ minWidth: 0 }}>
          <p className={classes.name}>
            <InPageLink to={hrefWith({ view: a.id })} style={{ color: "inherit", textDecoration: "none" }}>
              {a.title}
            </InPageLink>
          </p>
          <p className={classes.sub}>{vehicleOf(a) || t("Vehicle not specified")}</p>
        </div>
        <span
          className={classes.badge}
          data-testid="status-badge"
          style={{ background: `var(--mantine-color-${STATUS_COLOR[a.status]}-light)`, color: `var(--mantine-color-${STATUS_COLOR[a.status]}-light-color)` }}
        >
          {t(a.status)}
        </span>
      </div>
      <div className={classes.rows}>
        <div className={classes.row}>
          <span className={classes.dim}>{t("Customer:")}</span> <span data-testid="estimate-contact">{t(contactName(a))}</span>
        </div>
        <div className={classes.row}>
          <span className={classes.cost} data-testid="estimate-cost">
            {fmt.dollars(a.estimatedCost)}
          </span>
          {a.customerDecision && (
            <span
              className={classes.badge}
              data-testid="decision-badge"
              style={{
                background: `var(--mantine-color-${a.customerDecision.decision === "approved" ? "green" : "red"}-filled)`,
                color: "var(--mantine-color-white)",
              }}
            >
              {a.customerDecision.decision === "declined" ? t("Declined") : part === null ? t("Approved") : t("Approved {{amount}}", { amount: fmt.cents(part) })}
            </span>
          )}
          {a.version > 1 && (
            <span className={classes.badge} data-testid="version-badge">
              {t("Supplement {{label}}", { label: versionLabel(a.version) })}
            </span>
          )}
        </div>
        {a.damageCategories.length > 0 && (
          <div className={classes.chips} data-testid="estimate-categories">
            {a.damageCategories.slice(0, MAX_CARD_CATEGORIES).map((c) => (
              <span key={c} className={classes.badge}>
                {t(humanize(c))}
              </span>
            ))}
            {extra > 0 && <span className={classes.badge}>+{extra} {t("more")}</span>}
          </div>
        )}
      </div>
      <div className={classes.foot}>
        <span>{t("Created")} {fmt.date(a.createdAt)}</span>
        {"owner" in a && a.owner && <span className={classes.badge}>{t("Owner:")} {a.owner.name ?? t("Deleted account")}</span>}
        <div className={classes.actions}>
          <InPageLink to={hrefWith({ view: a.id })} className={classes.action} aria-label={`View ${a.title}`} title={t("View")}>
            <ListIcon name="eye" />
          </InPageLink>
          <a href={pdfHref(a.id)} download className={classes.action} aria-label={`Download ${a.title}`} title={t("Download PDF")}>
            <ListIcon name="download" />
          </a>
          <EmailButton estimate={a} className={action} action={formAction} />
          <InPageLink to={hrefWith({ edit: a.id })} className={classes.action} aria-label={`Edit ${a.title}`} title={t("Edit")}>
            <ListIcon name="pencil" />
          </InPageLink>
          <InPageLink
            to={hrefWith({ delete: a.id })}
            className={`${classes.action} ${classes.danger}`}
            aria-label={`Delete ${a.title}`}
            title={t("Delete")}
          >
            <ListIcon name="trash" />
          </InPageLink>
        </div>
      </div>
    </div>
  );
}
