import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Link } from "@remix-run/react";
import type { RecentCustomerDecision } from "~/services/customer-approval.server";
import { DecisionBadge } from "../assessments/badges";
import { useFormat, useT } from "~/utils/i18n";
import { versionLabel } from "~/schemas/version-label";

/** The customers' latest answers on their estimate pages (the dealer's notice on the dashboard). */
export function CustomerDecisions({ decisions }: { decisions: RecentCustomerDecision[] }) {
  const t = useT();
  const fmt = useFormat();
  return (
    <Card withBorder padding="lg" data-testid="customer-decisions">
      <Title order={2} size="h4" mb="sm">
        {t("Customer Decisions")}
      </Title>
      <Stack gap="xs">
        {decisions.map((d) => (
          <Group key={d.id} justify="space-between" wrap="wrap" gap="xs" data-testid="customer-decision">
            <div style={{ minWidth: 0 }}>
              <Anchor component={Link} to={`/estimates?view=${d.estimateId}`} fw={600}>
                {d.title}
              </Anchor>
              <Text size="sm" c="dimmed">
                {d.version > 1 ? `${t("Supplement {{label}}", { label: versionLabel(d.version) })} · ` : ""}
                {d.decision === "approved"
                  ? t("Signed by {{name}}", { name: d.signatureName ?? "" })
                  : d.reason
                    ? t("Reason: {{reason}}", { reason: d.reason })
                    : t("No reason given")}{" "}
                · {fmt.date(d.decidedAt)}
              </Text>
            </div>
            <DecisionBadge decision={d} estimatedCost={d.estimatedCost} />
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
