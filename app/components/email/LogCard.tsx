import { Link } from "@remix-run/react";
import { emailStatusColor } from "~/schemas/email-display";
import type { EmailLogJson } from "~/services/email-logs.server";
import classes from "../crud/cards.module.css";
import { EyeIcon } from "../crud/icons";
import { useFormat, useT } from "~/utils/i18n";
import { needsSettling, UnknownEmailActions } from "./UnknownEmailActions";

/** A status badge in the spec's colours (sent green, failed red, pending amber, anything else grey). */
export function StatusBadge({ log }: { log: Pick<EmailLogJson, "status" | "statusLabel"> }) {
  const color = emailStatusColor(log.status);
  return (
    <span
      className={classes.badge}
      data-testid="log-status"
      data-color={color}
      style={{ background: `var(--mantine-color-${color}-light)`, color: `var(--mantine-color-${color}-light-color)` }}
    >
      {log.statusLabel}
    </span>
  );
}

/** One log (spec §2): subject, status, recipient, assessment title or 'N/A', sent or created time; view. */
export function LogCard({ log, timeZone, viewTo }: { log: EmailLogJson; timeZone: string; viewTo: string }) {
  const t = useT();
  const fmt = useFormat();
  return (
    <div className={classes.card} role="listitem" aria-label={log.subject} data-testid="log-card">
      {/* A long status ("unknown (not resent)") goes under the subject on a phone rather than squeezing it. */}
      <div className={classes.head} style={{ flexWrap: "wrap" }}>
        <div style={{ minWidth: 0, flex: "1 1 10rem" }}>
          <p className={classes.name}>{log.subject}</p>
          <p className={classes.sub}>{t("To")} {log.recipientEmail}</p>
        </div>
        <div className={classes.actions}>
          <StatusBadge log={log} />
          <Link to={viewTo} preventScrollReset className={classes.action} aria-label={`View ${log.subject}`} title={t("View")}>
            <EyeIcon size={16} />
          </Link>
        </div>
      </div>
      <div className={classes.rows}>
        {/* An automatic notice (sign-in, analysis completed, delivery problem) is about no estimate. */}
        <p className={classes.dim}>{log.kind === "notification" ? t("Automatic notice") : t("Assessment: {{n}}", { n: log.assessmentTitle ?? "N/A" })}</p>
        <p className={classes.dim}>
          {log.sentAt ? t("Sent {{n}}", { n: fmt.dateTime(log.sentAt, timeZone) }) : t("Created {{n}}", { n: fmt.dateTime(log.createdAt, timeZone) })}
        </p>
        {log.status === "saved" && <p className={classes.dim}>{t("Saved on the server (local mail drop): not delivered.")}</p>}
        {log.status !== "sent" && log.lastError && (
          <p className={classes.dim} style={{ color: "var(--mantine-color-red-light-color)" }}>
            {log.lastError}
          </p>
        )}
        {needsSettling(log) && <UnknownEmailActions log={log} />}
        {log.settlement?.action === "delivered" && <p className={classes.dim}>{t("Marked delivered by you.")}</p>}
      </div>
    </div>
  );
}
