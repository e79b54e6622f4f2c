import { Anchor } from "#mantine/components/Anchor/Anchor";
import type { Formatters } from "~/utils/locale-format";
import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { PackageJson } from "~/services/packages.server";
import { UploadMediaModal } from "../upload/UploadMediaModal";
import { useFormat, useT } from "~/utils/i18n";

const INSIGHTS = [
  { title: "Photograph in daylight", text: "Even light without reflections lets the AI tell a scratch from a dent." },
  { title: "Three angles per damage", text: "A straight-on photo and two at 45° give the best severity estimate." },
  { title: "Pick a vendor", text: "Choosing the repairing vendor prices the estimate from its own rates." },
];

export function AiInsights() {
  const t = useT();
  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="sm">
        {t("AI Insights")}
      </Title>
      <Stack gap="sm">
        {INSIGHTS.map((tip) => (
          <div key={tip.title}>
            <Text fw={600} size="sm">
              {t(tip.title)}
            </Text>
            <Text size="sm" c="dimmed">
              {t(tip.text)}
            </Text>
          </div>
        ))}
      </Stack>
    </Card>
  );
}

/**
 * Quick Actions. Generate Report opens a chooser (a <details>: it works without JavaScript) of the
 * recent estimates, each a link to its PDF.
 */
export function QuickActions({ recent }: { recent: { id: string; title: string }[] }) {
  const t = useT();
  return (
    <Card withBorder padding="lg" data-testid="quick-actions">
      <Title order={2} size="h4" mb="sm">
        {t("Quick Actions")}
      </Title>
      <Stack gap="xs">
        <UploadMediaModal fullWidth />
        <Button component={Link} to="/contacts?dialog=new" variant="light" fullWidth>
          {t("New Contact")}
        </Button>
        <details data-testid="generate-report">
          <Button component="summary" variant="light" fullWidth>
            {t("Generate Report")}
          </Button>
          <Stack gap={4} mt="xs" px="xs">
            {recent.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t("No assessments yet")}
              </Text>
            ) : (
              <>
                <Text size="sm" c="dimmed">
                  {t("Choose the estimate for its PDF:")}
                </Text>
                {recent.map((a) => (
                  <Anchor key={a.id} href={`/api/assessments/${a.id}/estimate.pdf`} download size="sm" style={{ overflowWrap: "anywhere" }}>
                    {a.title} {t("(PDF)")}
                  </Anchor>
                ))}
              </>
            )}
          </Stack>
        </details>
        <Button component={Link} to="/estimates?status=reviewed" variant="light" fullWidth>
          {t("Send Estimate")}
        </Button>
      </Stack>
    </Card>
  );
}

/** A dashboard panel: named rows with a figure each, a note while they are samples, and a link on. */
function FigurePanel({
  title,
  testId,
  rows,
  sampleNote,
  link,
}: {
  title: string;
  testId: string;
  rows: { key: string; label: string; figure: ReactNode }[];
  sampleNote: string | null;
  link: { to: string; label: string };
}) {
  const t = useT();
  return (
    <Card withBorder padding="lg" data-testid={testId}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <Stack gap="xs">
        {rows.map((row) => (
          <Group key={row.key} justify="space-between" wrap="nowrap">
            <Text size="sm" truncate="end">
              {t(row.label)}
            </Text>
            {row.figure}
          </Group>
        ))}
        {sampleNote && (
          <Text size="xs" c="dimmed">
            {sampleNote && t(sampleNote)}
          </Text>
        )}
      </Stack>
      <Button component={Link} to={link.to} variant="default" mt="md" fullWidth>
        {t(link.label)}
      </Button>
    </Card>
  );
}

/** The spec's sample packages, shown only while the account has none of its own. */
const SAMPLE_PACKAGES = [
  { name: "Premium Coverage", price: 299 },
  { name: "Standard Package", price: 149 },
];

export function ActivePackages({ packages }: { packages: PackageJson[] }) {
  const t = useT();
  const fmt = useFormat();
  const rows = packages.length > 0 ? packages : SAMPLE_PACKAGES;
  return (
    <FigurePanel
      title={t("Active Packages")}
      testId="active-packages"
      rows={rows.map((p) => ({ key: p.name, label: p.name, figure: <Text fw={600}>{fmt.wholeUsd(p.price)}</Text> }))}
      sampleNote={packages.length === 0 ? "Sample packages: add your own under Packages." : null}
      link={{ to: "/packages", label: "Manage All" }}
    />
  );
}

export interface VendorRate {
  vendorId: string;
  name: string;
  minRate: number;
  maxRate: number;
}

const SAMPLE_RATES: VendorRate[] = [
  { vendorId: "sample-body", name: "Body work", minRate: 85, maxRate: 85 },
  { vendorId: "sample-paint", name: "Paint", minRate: 95, maxRate: 95 },
];

const rateText = (r: VendorRate, fmt: Formatters) =>
  r.minRate === r.maxRate ? `${fmt.usd(r.minRate)}/hr` : `${fmt.usd(r.minRate)}–${fmt.usd(r.maxRate)}/hr`;

/** Vendors' labour rates from their active pricing rules; the spec's samples while there are none. */
export function VendorPricing({ rates }: { rates: VendorRate[] }) {
  const t = useT();
  const fmt = useFormat();
  const real = rates.length > 0;
  return (
    <FigurePanel
      title={t("Vendor Pricing")}
      testId="vendor-pricing"
      rows={(real ? rates : SAMPLE_RATES).map((r) => ({
        key: r.vendorId,
        label: r.name,
        figure: (
          <Group gap={6} wrap="nowrap">
            <Text fw={600} size="sm">
              {rateText(r, fmt)}
            </Text>
            <Badge size="xs" color="green" variant="light">
              {t("Verified")}
            </Badge>
          </Group>
        ),
      }))}
      sampleNote={real ? null : "Sample rates: vendors set theirs in Vendor AI Training."}
      link={{ to: "/vendor-ai-training", label: "Update Rates" }}
    />
  );
}
