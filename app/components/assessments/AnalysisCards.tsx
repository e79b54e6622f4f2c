import { Alert } from "#mantine/components/Alert/Alert";
import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Loader } from "#mantine/components/Loader/Loader";
import { Progress } from "#mantine/components/Progress/Progress";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Form, Link } from "@remix-run/react";
import type { AssessmentJson } from "~/services/assessments.server";
import { humanize } from "../training/labels";
import { ANALYSIS_POLL_SECONDS, ANALYSIS_TOASTS, NOT_ANALYSED_CATEGORIES, NOT_ANALYSED_NOTE } from "~/schemas/assessment-wizard";
import { SeverityBadge } from "./badges";
import { useFormat, useT } from "~/utils/i18n";

const STAGES: Record<string, { label: string; value: number }> = {
  uploaded: { label: "Waiting to start", value: 5 },
  processing: { label: "Queued for analysis", value: 25 },
  analyzing: { label: "Analyzing the photos", value: 65 },
};

/** Step 3: where the analysis stands, refreshed until it is done (polling with JS, a meta refresh without). */
export function AnalyzingCard({ assessment }: { assessment: Pick<AssessmentJson, "status" | "title" | "mediaUrls"> }) {
  const t = useT();
  const stage = STAGES[assessment.status] ?? STAGES.processing;
  return (
    <Card withBorder padding="lg" data-testid="analysis-in-progress">
      <noscript>
        {/* Re-renders the page until the analysis is done; only without JavaScript (with it, the page polls). */}
        <meta httpEquiv="refresh" content={String(ANALYSIS_POLL_SECONDS)} />
      </noscript>
      <Stack align="center" gap="sm" py="md">
        <Loader />
        <Title order={2} size="h3">{t("AI Analysis in Progress")}</Title>
        <Text c="dimmed" ta="center">
          {t("Our AI is analyzing {{count}} file(s) of “{{title}}”. This typically takes 1-3 minutes.", { count: assessment.mediaUrls.length, title: assessment.title })}
        </Text>
        <Progress value={stage.value} striped animated w="100%" maw={420} aria-label="Analysis progress" />
        <Text size="sm" data-testid="analysis-stage">
          {t(stage.label)}
        </Text>
        <Text size="xs" c="dimmed">
          {t("You can leave this page: the analysis goes on, and coming back shows where it stands.")}
        </Text>
      </Stack>
    </Card>
  );
}

const confidencePercent = (confidence: number | undefined | null) => `${Math.round((confidence ?? 0) * 100)}%`;

/** A price left TBD for want of a vendor's rule: who can fix it, and where. */
const needsRule = (note: string | null | undefined) => Boolean(note && /pricing rule/i.test(note));

/** Step 4: the result and what to do next. */
export function ResultCard({ assessment }: { assessment: AssessmentJson }) {
  const t = useT();
  const fmt = useFormat();
  const photoWarnings = assessment.photoWarnings ?? [];
  // Nothing looked at the photos: say what is missing and who can set it up, never "completed successfully".
  const notAnalysed = assessment.aiAnalysis?.provider === "none";
  return (
    <Card withBorder padding="lg" data-testid="analysis-result">
      <Stack>
        {notAnalysed ? (
          <>
            <div>
              <Title order={2} size="h3">{t(ANALYSIS_TOASTS.notAnalysed.title)}</Title>
              <Text c="dimmed">{ANALYSIS_TOASTS.notAnalysed.message}</Text>
            </div>
            <Alert color="orange" title={t("What to do")} data-testid="analysis-missing">
              {t("An admin sets up an AI provider (Admin Settings → AI Provider) or verifies training images (AI Training); then analyse the assessment again. Meanwhile a person can enter the damages and prices by hand: View Full Estimate, then Edit.")}
            </Alert>
          </>
        ) : (
          <div>
            <Title order={2} size="h3">{t(ANALYSIS_TOASTS.complete.title)}</Title>
            <Text c="dimmed">{ANALYSIS_TOASTS.complete.message}</Text>
          </div>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <div>
            <Text size="sm" c="dimmed">
              {t("Severity")}
            </Text>
            {assessment.severity ? <SeverityBadge severity={assessment.severity} /> : <Text>{t("Not determined")}</Text>}
          </div>
          <div>
            <Text size="sm" c="dimmed">
              {t("Estimated Cost")}
            </Text>
            <Text fw={700} fz="xl" data-testid="result-cost">
              {assessment.estimatedCost == null ? t("TBD") : fmt.usd(assessment.estimatedCost)}
            </Text>
            {assessment.estimatedCost == null && assessment.costNote && (
              <Text size="xs" c="dimmed" data-testid="result-cost-note">
                {notAnalysed ? t(NOT_ANALYSED_NOTE) : assessment.costNote}
                {!notAnalysed && needsRule(assessment.costNote) && t(". The vendor adds the missing pricing rules in Vendor AI Training; the price follows when the assessment is analysed again.")}
              </Text>
            )}
          </div>
          <div>
            <Text size="sm" c="dimmed">
              {t("Confidence")}
            </Text>
            <Text fw={700} fz="xl" data-testid="result-confidence">
              {confidencePercent(assessment.aiAnalysis?.confidence)}
            </Text>
          </div>
        </SimpleGrid>
        <div>
          <Text size="sm" c="dimmed">
            {t("Damage Categories")}
          </Text>
          <Group gap="xs" mt={4}>
            {notAnalysed ? (
              // Nothing looked at the photos: no claim that there is no damage.
              <Text size="sm" data-testid="result-categories-not-analysed">{t(NOT_ANALYSED_CATEGORIES)}</Text>
            ) : assessment.damageCategories.length === 0 ? (
              <Text size="sm">{t("None found")}</Text>
            ) : (
              assessment.damageCategories.map((c) => (
                <Badge key={c} variant="outline">
                  {humanize(c)}
                </Badge>
              ))
            )}
          </Group>
        </div>
        <div>
          <Text size="sm" c="dimmed">
            {t("AI Analysis")}
          </Text>
          <Text data-testid="result-description">{assessment.aiAnalysis?.description ?? t("No description.")}</Text>
        </div>
        {photoWarnings.map((w) => {
          // The photo's number on this assessment (the order the files were picked) and its file name.
          const n = assessment.mediaUrls.indexOf(w.mediaUrl) + 1;
          return (
            <Alert key={`${w.mediaUrl}-${w.otherAssessmentId}`} color="orange" title={t("Photo seen before")} data-testid="photo-warning">
              {w.photoName
                ? t("Photo {{n}} ({{name}}) also appears on an earlier assessment:", { n, name: w.photoName })
                : t("Photo {{n}} also appears on an earlier assessment:", { n })}{" "}
              <Anchor component={Link} to={`/estimates?view=${w.otherAssessmentId}`}>
                {w.otherTitle}
              </Anchor>
            </Alert>
          );
        })}
        <Group justify="flex-end" wrap="wrap">
          <Form method="post">
            <Button type="submit" name="intent" value="new" variant="default">
              {t("New Assessment")}
            </Button>
          </Form>
          <Button component={Link} to={`/estimates?view=${assessment.id}`} variant="light">
            {t("View Full Estimate")}
          </Button>
          <Form method="post">
            <input type="hidden" name="id" value={assessment.id} />
            <Button type="submit" name="intent" value="send">
              {t("Send to Customer")}
            </Button>
          </Form>
        </Group>
      </Stack>
    </Card>
  );
}
