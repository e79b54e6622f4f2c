import { lazyComponent } from "~/components/lazy-component";
import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Card } from "#mantine/components/Card/Card";
import { Group } from "#mantine/components/Group/Group";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import {
  json,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { FormError } from "~/components/form/fields/FormError";
import { showToast } from "~/components/toast";
import { DraftNotice } from "~/components/upload/DraftNotice";
import { LinkImportForm } from "~/components/upload/LinkImportForm";
import { UploadFallbackForm } from "~/components/upload/UploadFallbackForm";
import { UploadedFileList, type ListedFile } from "~/components/upload/UploadedFileList";
import { uploaderLinks } from "~/components/upload/links";
import { Uploader, type UploadedFile } from "~/components/upload/Uploader";
import { ANALYSIS_POLL_SECONDS, ANALYSIS_TOASTS, wizardViewOf, type WizardView } from "~/schemas/assessment-wizard";
import { UPLOAD_LIMITS, messages } from "~/schemas/upload-limits";
import { uploadWizardAction } from "~/screens/upload-wizard.server";
import { requireUser } from "~/services/auth.server";
import { getAssessment } from "~/services/assessments.server";
import { listContacts } from "~/services/contacts.server";
import { wizardDraft } from "~/services/storage/draft.server";
import { listVendors } from "~/services/vendors.server";
import { prepareVinDecoder } from "~/services/vin.server";
import { pageTitle, useT } from "~/utils/i18n";
import { WizardSteps } from "~/components/upload/WizardSteps";

// The details step's form (with the form library) loads when the wizard reaches that step.
const DetailsForm = lazyComponent("assessments/DetailsForm", () => import("~/components/assessments/DetailsForm").then((m) => m.DetailsForm));
// So do the analysis's progress and result: a visit that opens the wizard uploads first.
const AnalyzingCard = lazyComponent("assessments/AnalyzingCard", () => import("~/components/assessments/AnalysisCards").then((m) => m.AnalyzingCard));
const ResultCard = lazyComponent("assessments/ResultCard", () => import("~/components/assessments/AnalysisCards").then((m) => m.ResultCard));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Upload & Assess") }];
export const links: LinksFunction = () => uploaderLinks();

const STEPS = ["Upload Media", "Assessment Details", "AI Analysis", "Complete"] as const;
const STEP_OF: Record<WizardView, number> = { upload: 0, details: 1, analyzing: 2, complete: 3 };
/** The details step's contact dropdown: the newest contacts (a dropdown of thousands helps nobody). */
const CONTACT_CHOICES = 500;

async function detailsChoices(actor: Awaited<ReturnType<typeof requireUser>>) {
  // The details step is where a VIN is typed: its decoder opens now, not at the submit.
  prepareVinDecoder();
  const [contacts, vendors] = await Promise.all([listContacts(actor, { limit: CONTACT_CHOICES }), listVendors()]);
  const vendorChoices = vendors.map(({ id, name }) => ({ id, name }));
  const preferred = actor.user.defaultVendorId ? String(actor.user.defaultVendorId) : null;
  return {
    contacts: contacts.map(({ id, firstName, lastName }) => ({ id, firstName, lastName })),
    vendors: vendorChoices,
    // The account's default vendor (Settings → Profile), while it is still a vendor.
    defaultVendorId: preferred && vendorChoices.some((v) => v.id === preferred) ? preferred : null,
  };
}

/**
 * The wizard's state lives on the server: the draft files (step 1), then the assessment named in
 * `?assessment=` whose status decides the step, so leaving and coming back finds the same analysis.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  const url = new URL(request.url);
  const id = url.searchParams.get("assessment");
  if (id) {
    const assessment = await getAssessment(actor, id);
    const view = wizardViewOf(assessment.status);
    const choices = view === "details" ? await detailsChoices(actor) : { contacts: [], vendors: [], defaultVendorId: null };
    const files: ListedFile[] = [];
    return json({ view, files, assessment, draft: false, ...choices });
  }
  const files: ListedFile[] = (await wizardDraft(actor)).map(({ id, url, name, size, type, quality }) => ({ id, url, name, size, type, quality }));
  const view: WizardView = url.searchParams.get("step") === "details" && files.length > 0 ? "details" : "upload";
  const choices = view === "details" ? await detailsChoices(actor) : { contacts: [], vendors: [], defaultVendorId: null };
  // Files found on opening the wizard are a draft from before (an upload or removal here adds ?added=1).
  const draft = view === "upload" && files.length > 0 && !url.searchParams.has("added");
  return json({ view, files, assessment: null, draft, ...choices });
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return uploadWizardAction(actor, request);
}

/** With JavaScript the analyzing step polls its loader, and says when the result arrives or the analysis failed. */
function useAnalysisPolling(view: WizardView, failed: boolean, notAnalysed: boolean) {
  const revalidator = useRevalidator();
  const previous = useRef(view);
  useEffect(() => {
    if (view !== "analyzing") return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, ANALYSIS_POLL_SECONDS * 1000 - 1000);
    return () => clearInterval(timer);
  }, [view, revalidator]);
  useEffect(() => {
    // From the details step straight to the result: the analysis ended before the page first looked
    // (no provider answers at once), and the toast is owed all the same.
    const ended = previous.current === "analyzing" || previous.current === "details";
    if (ended && view === "complete") showToast(notAnalysed ? ANALYSIS_TOASTS.notAnalysed : ANALYSIS_TOASTS.complete);
    if (previous.current === "analyzing" && view === "details" && failed) showToast(ANALYSIS_TOASTS.failed);
    previous.current = view;
  }, [view, failed, notAnalysed]);
}

export default function UploadPage() {
  const t = useT();
  const { view, files, assessment, contacts, vendors, defaultVendorId, draft } = useLoaderData<typeof loader>();
  // Decided when the page opens: files this visit uploads (the list refreshes) are not a draft.
  const [openedOnDraft] = useState(draft);
  const showDraft = openedOnDraft && draft;
  const actionData = useActionData<{ formError?: string }>();
  const revalidator = useRevalidator();
  const failed = Boolean(assessment?.analysisError);
  useAnalysisPolling(view, failed, assessment?.aiAnalysis?.provider === "none");
  const limit = UPLOAD_LIMITS.wizard;
  const onComplete = useCallback(
    (uploaded: UploadedFile[]) => {
      showToast({ title: "Upload Complete", message: messages.uploaded(uploaded.length) });
      revalidator.revalidate();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  return (
    <Stack data-testid="upload-page">
      <div>
        <Title order={1}>{t("Upload & Assess")}</Title>
        <Text c="dimmed">{t("Upload photos or videos of the damaged vehicle for an AI damage assessment.")}</Text>
      </div>
      <WizardSteps steps={STEPS} active={STEP_OF[view]} />

      {view === "upload" && (
        <Card withBorder padding="lg">
          <Stack>
            <div>
              <Title order={2} size="h3">{t("Upload Images or Videos")}</Title>
              <Text size="sm" c="dimmed">
                {t("Drag and drop files here or click to select. Supports JPG, PNG, GIF, MP4 and MOV, max 100MB per file, up to")} {limit.maxNumberOfFiles} {t("files.")}
              </Text>
            </div>
            {showDraft && <DraftNotice count={files.length} />}
            <Uploader purpose="wizard" onComplete={onComplete} handOver />
            <UploadFallbackForm purpose="wizard" redirectTo="/upload" />
            <LinkImportForm />
            <UploadedFileList files={files} />
            <Form method="post">
              <Group justify="flex-end">
                <Button type="submit" name="intent" value="continue" disabled={files.length === 0}>
                  {t("Continue to Assessment Details")}
                </Button>
              </Group>
            </Form>
          </Stack>
        </Card>
      )}

      {view === "details" && (
        <Card withBorder padding="lg" data-testid="upload-details-step">
          <Stack>
            <Title order={2} size="h3">{t("Assessment Details")}</Title>
            {failed && assessment ? (
              <Alert color="red" title={ANALYSIS_TOASTS.failed.title} data-testid="analysis-failed">
                {ANALYSIS_TOASTS.failed.message} ({assessment.analysisError})
              </Alert>
            ) : (
              <Text c="dimmed" size="sm">
                {assessment ? assessment.mediaUrls.length : files.length} {t("file(s) ready for the assessment.")}
              </Text>
            )}
            <FormError title={t("Error")} message={actionData?.formError} />
            <DetailsForm
              mediaUrls={assessment ? assessment.mediaUrls : files.map((f) => f.url)}
              contacts={contacts}
              vendors={vendors}
              defaultVendorId={defaultVendorId}
              assessment={assessment}
            />
          </Stack>
        </Card>
      )}

      {view === "analyzing" && assessment && <AnalyzingCard assessment={assessment} />}
      {view === "complete" && assessment && <ResultCard assessment={assessment} />}
    </Stack>
  );
}
