import { Alert } from "#mantine/components/Alert/Alert";
import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { NativeSelect } from "~/components/form/NativeSelect";
import { Stack } from "#mantine/components/Stack/Stack";
import { Table } from "~/components/Table";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import type { SerializeFrom } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { LANGUAGE_CHOICES, THEME_CHOICES } from "~/schemas/settings";
import type { systemTab } from "~/screens/settings-system.server";
import { useFormat, useT } from "~/utils/i18n";
import { DATA_EXPORT_TOAST } from "~/schemas/toasts";
import { showToast } from "../toast";

type Data = SerializeFrom<typeof systemTab>;

function Appearance({ data }: { data: Data }) {
  const t = useT();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("Appearance")}
      </Title>
      <Form method="post">
        <input type="hidden" name="intent" value="update-appearance" />
        <Group align="flex-end">
          <NativeSelect name="theme" label={t("Theme")} defaultValue={data.theme} data={THEME_CHOICES.map((c) => ({ value: c.value, label: t(c.label) }))} />
          <NativeSelect name="language" label={t("Language")} defaultValue={data.language} data={LANGUAGE_CHOICES.map((c) => ({ ...c }))} />
          <Button type="submit">{t("Save")}</Button>
        </Group>
      </Form>
    </Card>
  );
}

function PendingImport({ pending }: { pending: NonNullable<Data["pendingImport"]> }) {
  const t = useT();
  const fmt = useFormat();
  if ("error" in pending) {
    return (
      <Alert color="red" title={t("The archive cannot be imported")} data-testid="import-report">
        {pending.error}
      </Alert>
    );
  }
  const { report, token } = pending;
  return (
    <Alert color="blue" title={t("Dry run: nothing is imported yet")} data-testid="import-report">
      <Text size="sm" mb="xs">
        {t("Archive of")} {report.source?.username || t("an unknown account")}
        {report.source?.exportedAt ? t(", exported {{n}}", { n: fmt.when(report.source.exportedAt) }) : ""}
        {t(". Every record gets a new id in this account; one already here, or imported before, is skipped.")}
      </Text>
      <Table withTableBorder verticalSpacing={4} fz="sm" mb="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("Collection")}</Table.Th>
            <Table.Th>{t("Records")}</Table.Th>
            <Table.Th>{t("Valid")}</Table.Th>
            <Table.Th>{t("Invalid")}</Table.Th>
            <Table.Th>{t("Already here")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.collections.map((c) => (
            <Table.Tr key={c.name} data-testid={`import-row-${c.name}`}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>{fmt.count(c.records)}</Table.Td>
              <Table.Td>{fmt.count(c.valid)}</Table.Td>
              <Table.Td>{fmt.count(c.invalid + c.notForAccount)}</Table.Td>
              <Table.Td>{fmt.count(c.existing)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {report.totalDropped > 0 && (
        <Stack gap={2} mb="xs">
          <Text size="sm" fw={600}>
            {fmt.count(report.totalDropped)} {t("reference(s) to what this account does not have will be dropped:")}
          </Text>
          {report.dropped.map((e, i) => (
            <Text key={`${e.collection}-${e.line}-${i}`} size="xs">
              {e.collection}{t(", line")} {e.line}: {e.message}
            </Text>
          ))}
        </Stack>
      )}
      {report.totalErrors > 0 && (
        <Stack gap={2} mb="xs">
          <Text size="sm" fw={600}>
            {fmt.count(report.totalErrors)} {t("record(s) will be skipped:")}
          </Text>
          {report.errors.map((e) => (
            <Text key={`${e.collection}-${e.line}`} size="xs">
              {e.collection}{t(", line")} {e.line}: {e.message}
            </Text>
          ))}
        </Stack>
      )}
      <Group>
        <Form method="post">
          <input type="hidden" name="intent" value="import-confirm" />
          <input type="hidden" name="token" value={token} />
          <Button type="submit">{t("Confirm import")}</Button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="import-discard" />
          <input type="hidden" name="token" value={token} />
          <Button type="submit" variant="default">
            {t("Cancel")}
          </Button>
        </Form>
      </Group>
    </Alert>
  );
}

/** An import running (its progress: reload to follow it) or interrupted, with Resume (a plain form: JavaScript off too). */
function RunningImport({ run }: { run: NonNullable<Data["runningImport"]> }) {
  const t = useT();
  const fmt = useFormat();
  const progress = t("{{applied}} of {{records}} records gone through", { applied: fmt.count(run.applied), records: fmt.count(run.records) });
  if (run.status === "interrupted") {
    return (
      <Alert color="yellow" title={t("Import interrupted")} data-testid="import-interrupted">
        <Text size="sm" mb="xs">
          {t("An import stopped before it finished (the app was stopped or lost its database). Part of the archive is in this account; Resume finishes it, and nothing is imported twice.")}
        </Text>
        <Group>
          <Form method="post">
            <input type="hidden" name="intent" value="import-resume" />
            <Button type="submit">{t("Resume import")}</Button>
          </Form>
          {/* Removes what the interrupted import stored and its archive (a plain form: JavaScript off too). */}
          <Form method="post">
            <input type="hidden" name="intent" value="import-discard-interrupted" />
            <Button type="submit" variant="default" color="red">
              {t("Discard import")}
            </Button>
          </Form>
        </Group>
      </Alert>
    );
  }
  return (
    <Alert color="blue" title={t("Import running")} data-testid="import-running">
      <Text size="sm">{progress}</Text>
    </Alert>
  );
}

function DataTools({ data }: { data: Data }) {
  const t = useT();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("Data")}
      </Title>
      <Stack>
        <div>
          <Button
            component="a"
            href="/api/account/export"
            download
            variant="light"
            data-testid="export-data"
            onClick={() => showToast({ title: t(DATA_EXPORT_TOAST.title), message: t(DATA_EXPORT_TOAST.message) })}
          >
            {t("Export Data")}
          </Button>
          <Text size="xs" c="dimmed" mt={4}>
            {t("Your contacts, packages, assessments (and a vendor's pricing) as a .tar.gz of ndjson files. Media files are not included.")}
          </Text>
        </div>
        {data.runningImport && <RunningImport run={data.runningImport} />}
        {data.pendingImport ? (
          <PendingImport pending={data.pendingImport} />
        ) : (
          <Form method="post" action="/settings/import" encType="multipart/form-data" reloadDocument>
            <Group align="flex-end">
              <Stack gap={4}>
                <Text size="sm" fw={500} component="label" htmlFor="import-file">
                  {t("Import Data")}
                </Text>
                {/* A plain file input: it posts the same with JavaScript off. */}
                <input id="import-file" type="file" name="file" accept=".gz,.tgz,application/gzip" required />
              </Stack>
              <Button type="submit" variant="light">
                {t("Upload and check")}
              </Button>
            </Group>
          </Form>
        )}
        <Form method="post">
          <input type="hidden" name="intent" value="clear-cache" />
          <Button type="submit" variant="default">
            {t("Clear Cache")}
          </Button>
        </Form>
      </Stack>
    </Card>
  );
}

function Status({ statuses }: { statuses: Data["statuses"] }) {
  const t = useT();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("Status")}
      </Title>
      <Table verticalSpacing="xs" data-testid="status-list" stackOnPhone>
        <Table.Tbody>
          {statuses.map((s) => (
            <Table.Tr key={s.name}>
              <Table.Td fw={600}>{t(s.name)}</Table.Td>
              <Table.Td>
                {/* Never squeezed to a dot: the badge keeps its text's width. */}
                <Badge color={s.warning ? "yellow" : s.ok ? "green" : s.notConfigured ? "gray" : "red"} variant="light"
                  style={{ flex: "none", overflow: "visible" }}
                  // Mantine's label may shrink to an ellipsis ("OPERATIO…") in a narrow cell: it keeps its whole word.
                  styles={{ label: { overflow: "visible" } }}
                >
                  {s.warning ? t("Warning") : s.ok ? t("Operational") : s.notConfigured ? t("Not configured") : t("Down")}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(s.detail)}</Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>
                <Text size="sm" c="dimmed">
                  {t("{{latencyMs}} ms", { latencyMs: s.latencyMs })}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Anchor href="/settings?tab=system" size="xs">
        {t("Check again")}
      </Anchor>
    </Card>
  );
}

/** Settings → System. */
export function SystemTab({ data }: { data: Data }) {
  return (
    <Stack>
      <DataTools data={data} />
      <Status statuses={data.statuses} />
      <Appearance data={data} />
    </Stack>
  );
}
