import { ActionIcon } from "#mantine/components/ActionIcon/ActionIcon";
import type { Formatters } from "~/utils/locale-format";
import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Progress } from "#mantine/components/Progress/Progress";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { AssessmentJson, DashboardStats } from "~/services/assessments.server";
import { DecisionBadge, StatusBadge } from "../assessments/badges";
import { CheckIcon, CurrencyIcon, StarIcon, TrendingUpIcon } from "../crud/icons";
import { StatCard } from "../crud/StatCard";
import { useFormat, useT } from "~/utils/i18n";
import { versionLabel } from "~/schemas/version-label";

/** The four figures; the month-over-month texts are the spec's fixed sample (part 1 §9). */
export function DashboardStatCards({ stats }: { stats: DashboardStats }) {
  const t = useT();
  const fmt = useFormat();
  const cards = [
    { label: "Total Assessments", value: fmt.count(stats.totalAssessments), change: "+12% from last month", icon: <StarIcon /> },
    { label: "Pending Reviews", value: fmt.count(stats.pendingReviews), change: "-8% from last month", icon: <CheckIcon />, color: "yellow" },
    { label: "Total Revenue", value: fmt.wholeUsd(stats.totalRevenue), change: "+23% from last month", icon: <CurrencyIcon />, color: "green" },
    { label: "AI Accuracy", value: fmt.percent(stats.aiAccuracy, 1), change: "+2.1% from last month", icon: <TrendingUpIcon />, color: "grape" },
  ];
  return (
    <SimpleGrid cols={{ base: 2, xs: 2, lg: 4 }} spacing={{ base: "xs", sm: "md" }}>
      {cards.map((c) => (
        <div key={c.label}>
          <StatCard label={c.label} value={c.value} icon={c.icon} color={c.color} />
          <Text size="xs" c="dimmed" mt={4} px="xs">
            {t(c.change)}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** The vehicle's year, make and model, or "" when none is given (the caller says so in the page's language). */
const vehicleOf = (a: Pick<AssessmentJson, "vehicleYear" | "vehicleMake" | "vehicleModel">) =>
  [a.vehicleYear, a.vehicleMake, a.vehicleModel].filter(Boolean).join(" ");

/** The dashboard's costs: whole US dollars (spec part 1 §9), or TBD. */
export const costOf = (a: Pick<AssessmentJson, "estimatedCost">, fmt: Formatters) => (a.estimatedCost == null ? "TBD" : fmt.wholeUsd(a.estimatedCost));

export function RecentAssessments({ assessments }: { assessments: AssessmentJson[] }) {
  const t = useT();
  const fmt = useFormat();
  return (
    <Card withBorder padding="lg" data-testid="recent-assessments">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t("Recent Damage Assessments")}
        </Title>
        <Anchor component={Link} to="/estimates" size="sm">
          {t("View All")}
        </Anchor>
      </Group>
      {assessments.length === 0 ? (
        <Text c="dimmed">{t("No assessments yet")}</Text>
      ) : (
        <Stack gap="xs">
          {assessments.map((a) => (
            <Card key={a.id} withBorder padding="sm" data-testid="recent-assessment">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <div style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600} truncate="end">
                      {a.title}
                    </Text>
                    <StatusBadge status={a.status} />
                    <DecisionBadge decision={a.customerDecision} estimatedCost={a.estimatedCost} />
                    {a.version > 1 && (
                      <Badge variant="outline" size="sm" data-testid="version-badge">
                        {t("Supplement {{label}}", { label: versionLabel(a.version) })}
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {vehicleOf(a) || t("Vehicle not specified")} · {fmt.date(a.createdAt)}
                  </Text>
                </div>
                <Group gap="xs">
                  <Text fw={600}>{costOf(a, fmt)}</Text>
                  <ActionIcon component={Link} to={`/estimates?view=${a.id}`} variant="subtle" aria-label={`View ${a.title}`}>
                    →
                  </ActionIcon>
                  <ActionIcon component="a" href={`/api/assessments/${a.id}/estimate.pdf`} download variant="subtle" aria-label={`Download ${a.title}`} title={t("Download PDF")}>
                    ↓
                  </ActionIcon>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** Approve / Reject / Send on the board: plain form posts to the dashboard's action. */
function BoardButton({ intent, id, label, color }: { intent: string; id: string; label: string; color?: string }) {
  const navigation = useNavigation();
  const busy = navigation.formData?.get("intent") === intent && navigation.formData?.get("id") === id;
  return (
    <Form method="post" action="/?index" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" size="compact-xs" variant="light" color={color} loading={busy}>
        {label}
      </Button>
    </Form>
  );
}

export interface WorkflowItems {
  upload: AssessmentJson[];
  review: AssessmentJson[];
  complete: AssessmentJson[];
}

/** One listed item of a column: its title (and cost once priced) above its actions. */
function BoardItem({ assessment, withCost, children }: { assessment: AssessmentJson; withCost?: boolean; children: ReactNode }) {
  const fmt = useFormat();
  return (
    <Stack gap={4} mb="xs" data-testid="board-item">
      <Text size="sm" truncate="end">
        {assessment.title}
        {withCost && ` · ${costOf(assessment, fmt)}`}
      </Text>
      <Group gap={4}>{children}</Group>
    </Stack>
  );
}

/** Each column's newest items with what can be done to them next. */
function ColumnItems({ column, items }: { column: keyof WorkflowItems | "analysis"; items: WorkflowItems }) {
  const t = useT();
  if (column === "upload") {
    return items.upload.map((a) => (
      <BoardItem key={a.id} assessment={a}>
        <Button component={Link} to={`/upload?assessment=${a.id}`} size="compact-xs" variant="light">
          {t("Analyze")}
        </Button>
      </BoardItem>
    ));
  }
  if (column === "review") {
    return items.review.map((a) => (
      <BoardItem key={a.id} assessment={a} withCost>
        <BoardButton intent="approve" id={a.id} label={t("Approve")} color="green" />
        <BoardButton intent="reject" id={a.id} label={t("Reject")} color="red" />
      </BoardItem>
    ));
  }
  if (column === "complete") {
    return items.complete.map((a) => (
      <BoardItem key={a.id} assessment={a} withCost>
        <BoardButton intent="send" id={a.id} label={t("Send Estimate")} />
      </BoardItem>
    ));
  }
  return null;
}

/** The four columns with live counts; Upload, Review and Complete list their newest items with the actions. */
export function WorkflowBoard({ stats, items }: { stats: DashboardStats; items: WorkflowItems }) {
  const t = useT();
  const { upload, analysis, review, complete } = stats.workflow;
  const total = upload + analysis + review + complete;
  const columns = [
    { key: "upload", title: "Upload", count: upload, color: "gray", status: "uploaded" },
    { key: "analysis", title: "AI Analysis", count: analysis, color: "yellow", status: "analyzing" },
    { key: "review", title: "Review", count: review, color: "blue", status: "completed" },
    { key: "complete", title: "Complete", count: complete, color: "green", status: "reviewed" },
  ] as const;
  return (
    <Card withBorder padding="lg" data-testid="workflow-board">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          {t("Assessment Workflow")}
        </Title>
        <Group gap="xs">
          <Button component={Link} to="/estimates" size="xs" variant="default">
            {t("Filter")}
          </Button>
          <Button component={Link} to="/upload" size="xs">
            {t("New Assessment")}
          </Button>
        </Group>
      </Group>
      <Progress value={total === 0 ? 0 : (complete / total) * 100} mb="md" aria-label="Share of assessments complete" />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        {columns.map((col) => (
          <Card key={col.key} withBorder padding="sm" data-testid={`workflow-${col.key}`}>
            <Group justify="space-between" mb="xs">
              <Text fw={600}>{t(col.title)}</Text>
              <Badge color={col.color} variant="light" data-testid="workflow-count">
                {col.count}
              </Badge>
            </Group>
            <ColumnItems column={col.key} items={items} />
            <Anchor component={Link} to={`/estimates?status=${col.status}`} size="xs">
              {t("Show all")}
            </Anchor>
          </Card>
        ))}
      </SimpleGrid>
    </Card>
  );
}
