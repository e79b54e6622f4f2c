import { Badge } from "#mantine/components/Badge/Badge";
import { SEVERITY_COLOR, STATUS_COLOR, type AssessmentStatus } from "~/schemas/assessment-status";
import { CheckIcon } from "../crud/icons";
import { humanize } from "../training/labels";
import { partlyApproved, type DecisionCopy } from "~/utils/approved-total";
import { useFormat, useT } from "~/utils/i18n";

/** Spec part 1 §4: completed and sent are green with a check, processing/analyzing amber, reviewed blue. */
export function StatusBadge({ status }: { status: AssessmentStatus }) {
  const t = useT();
  const done = status === "completed" || status === "sent";
  return (
    <Badge
      color={STATUS_COLOR[status]}
      variant="light"
      leftSection={done ? <CheckIcon size={12} /> : undefined}
      data-testid="status-badge"
    >
      {t(status)}
    </Badge>
  );
}

/**
 * The customer's answer on the estimate page, beside the status: Approved (green) or Declined (red);
 * an approval that left optional lines out says what it approved ("Approved $319.99").
 */
export function DecisionBadge({ decision, estimatedCost }: { decision: DecisionCopy | null; estimatedCost: number | null }) {
  const t = useT();
  const fmt = useFormat();
  if (!decision) return null;
  const approved = decision.decision === "approved";
  const part = partlyApproved(decision, estimatedCost);
  return (
    <Badge color={approved ? "green" : "red"} variant="filled" data-testid="decision-badge">
      {!approved ? t("Declined") : part === null ? t("Approved") : t("Approved {{amount}}", { amount: fmt.cents(part) })}
    </Badge>
  );
}

export function SeverityBadge({ severity }: { severity: string | null }) {
  const t = useT();
  if (!severity) return null;
  return (
    <Badge color={SEVERITY_COLOR[severity] ?? "green"} variant="filled" data-testid="severity-badge">
      {t(humanize(severity))}
    </Badge>
  );
}
