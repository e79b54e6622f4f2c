import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Link } from "@remix-run/react";
import type { UnansweredQuestions } from "~/services/estimate-questions.server";
import { useFormat, useT } from "~/utils/i18n";

/** The customers' questions waiting for an answer: how many, and the newest few (each opens its estimate, where it is answered). */
export function UnansweredQuestionsCard({ questions }: { questions: UnansweredQuestions }) {
  const t = useT();
  const fmt = useFormat();
  return (
    <Card withBorder padding="lg" data-testid="unanswered-questions">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={2} size="h4">
          {t("Unanswered Questions")}
        </Title>
        <Text fw={700} size="xl" data-testid="unanswered-count" aria-label={t("{{count}} unanswered", { count: questions.count })}>
          {questions.count}
        </Text>
      </Group>
      <Stack gap="xs">
        {questions.latest.map((q) => (
          <div key={q.id} style={{ minWidth: 0 }} data-testid="unanswered-question">
            <Anchor component={Link} to={`/estimates?view=${q.estimateId}`} fw={600}>
              {q.title}
            </Anchor>
            <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
              {q.versionLabel} · {fmt.date(q.askedAt)} · {q.message}
            </Text>
          </div>
        ))}
      </Stack>
    </Card>
  );
}
