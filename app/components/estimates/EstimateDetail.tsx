import { Alert } from "#mantine/components/Alert/Alert";
import { Anchor } from "#mantine/components/Anchor/Anchor";
import { Badge } from "#mantine/components/Badge/Badge";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Table } from "~/components/Table";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { EstimateDecisionJson, EstimateLinkJson } from "~/services/estimate-links.server";
import type { EstimateQuestionJson } from "~/services/estimate-questions.server";
import type { EstimateJson } from "~/services/estimates.server";
import { DecisionBadge, SeverityBadge, StatusBadge } from "../assessments/badges";
import { humanize } from "../training/labels";
import { contactName, NO_CONTACT_MESSAGE, pdfHref } from "./EstimateCard";
import { AuditTrail, EstimateLines } from "./EstimateLines";
import { BEING_ANALYZED } from "~/schemas/assessment-status";
import { mediaIdOf } from "~/schemas/media-url";
import { useFormat, useT } from "~/utils/i18n";

const NOT_SPECIFIED = "Not specified";

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId} style={{ overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** A form post of one intent about this estimate (approve, reject, email). */
function PostButton({
  id,
  intent,
  linkId,
  children,
  ...props
}: {
  id: string;
  intent: string;
  linkId?: string;
  children: ReactNode;
  color?: string;
  variant?: string;
  disabled?: boolean;
  title?: string;
  "aria-label"?: string;
}) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {linkId && <input type="hidden" name="linkId" value={linkId} />}
      <Button type="submit" size="xs" {...props}>
        {children}
      </Button>
    </Form>
  );
}

/** The detail dialog (spec §2) with the photos, damages, lines, audit trail and the estimate's actions. */
export function EstimateDetail({
  estimate: a,
  links,
  decisions = [],
  questions = [],
  hrefWith,
  formatTime,
}: {
  estimate: EstimateJson;
  /** The customer links of every version of the estimate, newest first as the service lists them. */
  links: EstimateLinkJson[];
  /** The customer's decisions on every version, newest first (this version's is shown line by line). */
  decisions?: EstimateDecisionJson[];
  /** The customers' questions on every version, oldest first, with their answers. */
  questions?: EstimateQuestionJson[];
  hrefWith: (changes: Record<string, string | null>) => string;
  formatTime: (iso: string) => string;
}) {
  const t = useT();
  const fmt = useFormat();
  const when = (iso: string | null) => (iso ? formatTime(iso) : t("unknown"));
  // A damage seen on a video's frame is on that video's file.
  const videoOf = new Map(a.videoFrames.map((f) => [f.mediaUrl, f.videoUrl]));
  const photoOf = (url: string | null) => (url ? a.mediaUrls.indexOf(videoOf.get(url) ?? url) + 1 : 0);
  return (
    <Stack gap="md" data-testid="estimate-detail">
      <Text size="sm" c="dimmed" data-testid="estimate-number">
        {t("Estimate No. {{number}}", { number: a.estimateNumber })}
      </Text>
      {a.supplementOf && (
        <Alert color="blue" variant="light" data-testid="earlier-versions">
          {t("Supplement {{label}} (version {{version}}) of a sent estimate. Earlier versions:", { label: a.versionLabel, version: a.version })}{" "}
          {a.earlierVersions.map((v) => (
            <Anchor key={v.id} component={Link} to={hrefWith({ view: v.id })} mr="xs">
              {v.label} ({t("version")} {v.version}, {t(v.status)})
            </Anchor>
          ))}
        </Alert>
      )}
      {a.differences && (
        <Section title={`Changes from ${a.differences.from.label}`}>
          <ul style={{ margin: 0, paddingLeft: 18 }} data-testid="version-differences">
            {a.differences.changes.map((change) => (
              <li key={change}>
                <Text size="sm">{change}</Text>
              </li>
            ))}
            {a.differences.changes.length === 0 && (
              <li>
                <Text size="sm">No differences in the lines or totals.</Text>
              </li>
            )}
          </ul>
        </Section>
      )}
      {a.supplements.length > 0 && (
        <Alert color="yellow" variant="light" data-testid="later-versions">
          {t("Version")} {a.version}{t(": this estimate was revised after it was sent (lists and totals count the latest version):")}{" "}
          {a.supplements.map((s) => (
            <Anchor key={s.id} component={Link} to={hrefWith({ view: s.id })} mr="xs">
              {s.label} ({t("version")} {s.version}, {t(s.status)})
            </Anchor>
          ))}
        </Alert>
      )}
      <Group gap="xs" wrap="wrap">
        {a.status === "completed" && (
          <PostButton id={a.id} intent="approve" color="green">
            {t("Approve")}
          </PostButton>
        )}
        {a.status === "uploaded" && (
          <PostButton id={a.id} intent="analyze" color="indigo">
            {t("Analyze")}
          </PostButton>
        )}
        {(a.status === "completed" || a.status === "reviewed") && (
          <PostButton id={a.id} intent="reject" color="red" variant="light">
            {t("Reject")}
          </PostButton>
        )}
        {!BEING_ANALYZED.includes(a.status) && (
          <Button component={Link} to={hrefWith({ view: null, edit: a.id })} size="xs" variant="light">
            {a.status === "sent" ? t("Edit (new supplement)") : t("Edit")}
          </Button>
        )}
        <Button component="a" href={pdfHref(a.id)} download size="xs" variant="default">
          {t("Download PDF")}
        </Button>
        <PostButton id={a.id} intent="email" variant="default" disabled={!a.contactId} title={a.contactId ? undefined : t(NO_CONTACT_MESSAGE)}>
          {t("Email")}
        </PostButton>
        <Button component={Link} to={hrefWith({ view: null, delete: a.id })} size="xs" color="red" variant="subtle">
          {t("Delete")}
        </Button>
      </Group>
      {!a.contactId && (
        <Text size="xs" c="dimmed">
          {t(NO_CONTACT_MESSAGE)}
          {!BEING_ANALYZED.includes(a.status) && (
            <>
              {" "}
              <Link to={hrefWith({ view: null, edit: a.id })}>{t("Choose the customer")}</Link>
            </>
          )}
        </Text>
      )}

      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Field label={t("Year")}>{a.vehicleYear ?? t(NOT_SPECIFIED)}</Field>
        <Field label={t("Make")}>{a.vehicleMake ?? t(NOT_SPECIFIED)}</Field>
        <Field label={t("Model")}>{a.vehicleModel ?? t(NOT_SPECIFIED)}</Field>
        <Field label={t("VIN")} testId="estimate-vin">
          {a.vin ?? t(NOT_SPECIFIED)}
        </Field>
        <Field label={t("Status")}>
          <StatusBadge status={a.status} />
        </Field>
        <Field label={t("Severity")}>{a.severity ? <SeverityBadge severity={a.severity} /> : t("Not determined")}</Field>
        <Field label={t("Created")}>{formatTime(a.createdAt)}</Field>
        <Field label={t("Updated")}>{formatTime(a.updatedAt)}</Field>
        <Field label={t("Cost Estimate")} testId="detail-cost">
          <strong>{fmt.dollars(a.estimatedCost)}</strong>
        </Field>
        <Field label={t("Customer")}>{t(contactName(a))}</Field>
        <Field label={t("Customer decision")} testId="detail-decision">
          {a.customerDecision ? (
            <>
              <DecisionBadge decision={a.customerDecision} estimatedCost={a.estimatedCost} /> {formatTime(a.customerDecision.decidedAt)}
            </>
          ) : (
            t("None yet")
          )}
        </Field>
      </SimpleGrid>
      {a.estimatedCost === null && a.costNote && (
        <Text size="xs" c="dimmed">
          {a.costNote}
        </Text>
      )}
      <Field label={t("Damage Categories")}>
        <Group gap={4}>
          {a.damageCategories.length === 0 ? t("None") : a.damageCategories.map((c) => <Badge key={c} variant="outline" size="sm">{t(humanize(c))}</Badge>)}
        </Group>
      </Field>
      <Field label={t("Notes")}>{a.notes ?? t(NOT_SPECIFIED)}</Field>
      <Field label={t("AI Analysis")}>
        {a.aiAnalysis ? (
          <>
            {a.aiAnalysis.description || t("No description.")}{" "}
            {a.aiAnalysis.provider !== "none" && (
              <Text span c="dimmed" size="xs">
                {t("Confidence")} {Math.round(a.aiAnalysis.confidence * 100)}%
              </Text>
            )}
          </>
        ) : (
          t("Not analyzed yet")
        )}
      </Field>

      <Section title={t("Photos ({{length}})", { length: a.mediaUrls.length })}>
        <Group gap="xs">
          {a.mediaUrls.map((url, i) => {
            // Only the app's own media are linked and shown: a stored `javascript:` or outside URL is not.
            const id = mediaIdOf(url);
            return id ? (
              <a key={url} href={`/media/${id}`} target="_blank" rel="noreferrer" aria-label={`Photo ${i + 1} full size`}>
                <img src={`/media/${id}/thumb`} alt={t("Photo {{n}}", { n: i + 1 })} width={96} height={72} style={{ objectFit: "cover", borderRadius: 4 }} loading="lazy" />
              </a>
            ) : null;
          })}
        </Group>
      </Section>

      <Section title={t("Damages")}>
        {a.damages.length === 0 ? (
          <Text size="sm">{t("None recorded.")}</Text>
        ) : (
          <Table.ScrollContainer minWidth={420} stackOnPhone>
            <Table verticalSpacing={4} data-testid="estimate-damages" stackOnPhone>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("Type")}</Table.Th>
                  <Table.Th>{t("Location")}</Table.Th>
                  <Table.Th>{t("Severity")}</Table.Th>
                  <Table.Th>{t("Confidence")}</Table.Th>
                  <Table.Th>{t("Photo")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {a.damages.map((d, i) => (
                  <Table.Tr key={i}>
                    <Table.Td data-label={t("Type")}>{t(humanize(d.damageType))}</Table.Td>
                    <Table.Td data-label={t("Location")}>{t(d.location)}</Table.Td>
                    <Table.Td data-label={t("Severity")}>{t(d.severity)}</Table.Td>
                    <Table.Td data-label={t("Confidence")}>{Math.round(d.confidence * 100)}%</Table.Td>
                    <Table.Td data-label={t("Photo")}>{photoOf(d.mediaUrl) > 0 ? t("Photo {{n}}", { n: photoOf(d.mediaUrl) }) : t("Photo not stated")}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>

      <Section title={t("Line Items")}>
        <EstimateLines estimate={a} />
      </Section>

      <CustomerApproval decision={decisions.find((d) => d.estimateId === a.id) ?? null} formatTime={formatTime} />

      <Section title={t("Customer Links")}>
        {links.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("No customer link yet: emailing the estimate creates one.")}
          </Text>
        ) : (
          <Stack gap={6} component="ul" style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="customer-links">
            {links.map((link) => (
              <li key={link.id} data-testid="customer-link">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div>
                    <Text size="sm">
                      {t("Version")} {link.version} · <strong data-testid="link-state">{t(link.state)}</strong> · {t("via")} {t(link.via)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t("Created")} {when(link.createdAt)} ·{" "}
                      {link.state === "revoked" ? t("Revoked {{when}}", { when: when(link.revokedAt) }) : t("Expires {{when}}", { when: when(link.expiresAt) })} ·{" "}
                      {link.lastViewedAt
                        ? t(link.views === 1 ? "Last viewed {{when}} ({{views}} view)" : "Last viewed {{when}} ({{views}} views)", { when: formatTime(link.lastViewedAt), views: link.views })
                        : t("Not opened yet")}
                    </Text>
                  </div>
                  {link.state === "active" && (
                    <PostButton id={a.id} intent="revoke-link" linkId={link.id} color="red" variant="light" aria-label={t("Revoke the link to version {{version}}", { version: link.version })}>
                      {t("Revoke")}
                    </PostButton>
                  )}
                </Group>
              </li>
            ))}
          </Stack>
        )}
      </Section>
      <Section title={t("Customer Questions")}>
        <CustomerQuestions estimateId={a.id} questions={questions} formatTime={formatTime} />
      </Section>
      <Section title={t("Audit Trail")}>
        <AuditTrail audit={a.audit} formatTime={formatTime} />
      </Section>
    </Stack>
  );
}

/**
 * This version's customer decision as signed (docs/decisions/0063): what was approved line by line,
 * the approved total, the signature, time, address, browser and the SHA-256 of the PDF the customer saw.
 * A decision recorded before lines were kept shows the whole version.
 */
function CustomerApproval({ decision: d, formatTime }: { decision: EstimateDecisionJson | null; formatTime: (iso: string) => string }) {
  const t = useT();
  const fmt = useFormat();
  if (!d) return null;
  return (
    <Section title={t("Customer Approval")}>
      <Stack gap={4} data-testid="customer-approval">
        <Text size="sm">
          <strong>{d.decision === "approved" ? t("Approved") : t("Declined")}</strong> · {d.decidedAt ? formatTime(d.decidedAt) : ""}
          {d.signatureName ? ` · ${t("Signed as {{name}}", { name: d.signatureName })}` : ""}
          {d.reason ? ` · ${d.reason}` : ""}
        </Text>
        {d.decision === "approved" && (
          <Text size="sm" data-testid="approved-total">
            {t("Approved total")}: <strong>{d.approvedTotalCents === null ? t("To be determined") : fmt.cents(d.approvedTotalCents)}</strong>
          </Text>
        )}
        {d.lines && (
          <Table.ScrollContainer minWidth={360} stackOnPhone>
            <Table verticalSpacing={2} data-testid="decision-lines" stackOnPhone>
              <Table.Tbody>
                {d.lines.map((l) => (
                  <Table.Tr key={l.id} data-testid="decision-line" data-decision={l.decision}>
                    <Table.Td>{l.label}</Table.Td>
                    <Table.Td>{l.optional ? t("Optional") : t("Required")}</Table.Td>
                    <Table.Td fw={600} c={l.decision === "approved" ? "green.9" : "red.9"}>
                      {l.decision === "approved" ? t("Approved") : t("Declined")}
                    </Table.Td>
                    <Table.Td ta="right">{fmt.cents(l.amountCents)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {t("IP {{ip}} · {{agent}}", { ip: d.ip, agent: d.userAgent || "-" })} · {t("PDF SHA-256 {{hash}}", { hash: d.pdfSha256 })}
        </Text>
      </Stack>
    </Section>
  );
}

/**
 * The customers' questions on the estimate (every version) with the dealer's answers, and a plain
 * form under each to answer it: it posts to /estimates without script, and the answer is emailed to
 * the customer with the link to their page (docs/decisions/0058).
 */
function CustomerQuestions({ estimateId, questions, formatTime }: { estimateId: string; questions: EstimateQuestionJson[]; formatTime: (iso: string) => string }) {
  const t = useT();
  if (questions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t("No questions from the customer yet.")}
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="ol" style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="customer-questions">
      {questions.map((q) => {
        const who = q.customer ? `${q.customer.firstName} ${q.customer.lastName}`.trim() : "";
        return (
          <li key={q.id} data-testid="customer-question">
            <Text size="xs" c="dimmed" component="div">
              {formatTime(q.askedAt)} · {t("Version")} {q.versionLabel} · {who || t("The customer")}
              {q.answerTo ? ` <${q.answerTo}>` : ""} ·{" "}
              {q.answered ? <Badge size="xs" color="green">{t("Answered")}</Badge> : <Badge size="xs" color="yellow">{t("Unanswered")}</Badge>}
            </Text>
            <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-testid="question-text">
              {q.message}
            </Text>
            {q.answers.map((answer) => (
              <div key={answer.id} data-testid="question-answer" style={{ borderLeft: "3px solid var(--mantine-color-blue-6)", paddingLeft: 8, marginTop: 4 }}>
                <Text size="xs" c="dimmed">
                  {formatTime(answer.at)} · {answer.byName}
                  {answer.emailLogId ? ` · ${t("emailed")}` : ""}
                </Text>
                <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                  {answer.message}
                </Text>
              </div>
            ))}
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="answer-question" />
              <input type="hidden" name="id" value={estimateId} />
              <input type="hidden" name="questionId" value={q.id} />
              <label htmlFor={`answer-${q.id}`} style={{ display: "block", fontSize: "var(--mantine-font-size-sm)", fontWeight: 500, marginTop: 6 }}>
                {q.answered ? t("Answer again") : t("Your answer")}
              </label>
              <textarea
                id={`answer-${q.id}`}
                name="message"
                rows={3}
                maxLength={4000}
                required
                style={{ width: "100%", font: "inherit", padding: 6, borderRadius: 4, border: "1px solid var(--mantine-color-gray-5)" }}
              />
              <Button type="submit" size="xs" mt={4}>
                {q.answerTo ? t("Send answer") : t("Save answer")}
              </Button>
            </Form>
          </li>
        );
      })}
    </Stack>
  );
}
