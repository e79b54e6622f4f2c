import { Button, Card, Group, Stack, Stepper, Text, Title } from "@mantine/core";
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useCallback } from "react";
import { showToast } from "~/components/toast";
import { UploadFallbackForm } from "~/components/upload/UploadFallbackForm";
import { UploadedFileList } from "~/components/upload/UploadedFileList";
import { Uploader, uploaderLinks, type UploadedFile } from "~/components/upload/Uploader";
import { UPLOAD_LIMITS, messages } from "~/schemas/upload-limits";
import { requireUser } from "~/services/auth.server";
import { redirectWithToast } from "~/services/session.server";
import { listDraft, receiveFormUploads, removeUpload } from "~/services/storage.server";

export const meta: MetaFunction = () => [{ title: "Upload & Assess · DamageIQ" }];
export const links: LinksFunction = () => uploaderLinks();

const STEPS = ["Upload Media", "Assessment Details", "AI Analysis", "Complete"] as const;
const STEP_PARAMS = ["upload", "details"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  const files = await listDraft(actor);
  const step = new URL(request.url).searchParams.get("step");
  return json({
    files: files.map(({ id, url, name, size, type }) => ({ id, url, name, size, type })),
    step: step === "details" && files.length > 0 ? 1 : 0,
  });
}

/** Where a no-JS upload form may send the user back to (never an outside URL). */
const safeRedirect = (value: string | null) => (value === "/" || value === "/upload" ? value : "/upload");

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  const url = new URL(request.url);

  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    // The no-JS uploader: files are streamed into storage as the form arrives.
    const purpose = url.searchParams.get("purpose") === "dashboard" ? "dashboard" : "wizard";
    const back = safeRedirect(url.searchParams.get("redirectTo"));
    const { stored, errors } = await receiveFormUploads(actor, request, purpose);
    if (errors.length > 0) {
      const done = stored.length > 0 ? `${messages.uploaded(stored.length)}. ` : "";
      return redirectWithToast(request, back === "/" ? "/?upload=1" : back, {
        title: "Upload Error",
        message: `${done}${errors.join(" ")}`,
        color: "red",
      });
    }
    if (stored.length === 0) {
      return redirectWithToast(request, back, { title: "No Files", message: "Please upload at least one file", color: "red" });
    }
    return redirectWithToast(request, back, {
      title: "Upload Complete",
      message: purpose === "dashboard" ? messages.dashboardComplete : messages.uploaded(stored.length),
    });
  }

  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "remove") {
    const id = form.get("id");
    try {
      await removeUpload(actor, typeof id === "string" ? id : "");
    } catch (error) {
      if (!(error instanceof Response)) throw error;
    }
    return redirect("/upload");
  }
  if (intent === "continue") {
    const files = await listDraft(actor);
    if (files.length === 0) {
      return redirectWithToast(request, "/upload", { title: "No Files", message: "Please upload at least one file", color: "red" });
    }
    return redirect("/upload?step=details");
  }
  return redirect("/upload");
}

export default function UploadPage() {
  const { files, step } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
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
        <Title order={1}>Upload &amp; Assess</Title>
        <Text c="dimmed">Upload photos or videos of the damaged vehicle for an AI damage assessment.</Text>
      </div>
      <Stepper active={step} allowNextStepsSelect={false} size="sm">
        {STEPS.map((label) => (
          <Stepper.Step key={label} label={label} />
        ))}
      </Stepper>

      {STEP_PARAMS[step] === "upload" ? (
        <Card withBorder padding="lg">
          <Stack>
            <div>
              <Title order={3}>Upload Images or Videos</Title>
              <Text size="sm" c="dimmed">
                Drag and drop files here or click to select. Supports JPG, PNG, GIF, MP4 and MOV, max 100MB per
                file, up to {limit.maxNumberOfFiles} files.
              </Text>
            </div>
            <Uploader purpose="wizard" onComplete={onComplete} />
            <UploadFallbackForm purpose="wizard" redirectTo="/upload" />
            <UploadedFileList files={files} />
            <Form method="post">
              <Group justify="flex-end">
                <Button type="submit" name="intent" value="continue" disabled={files.length === 0}>
                  Continue to Assessment Details
                </Button>
              </Group>
            </Form>
          </Stack>
        </Card>
      ) : (
        <Card withBorder padding="lg" data-testid="upload-details-step">
          <Stack>
            <Title order={3}>Assessment Details</Title>
            <Text c="dimmed">
              {files.length} file(s) ready for the assessment. The details form arrives with the assessments feature.
            </Text>
            <Group>
              <Button component={Link} to="/upload" variant="default">
                Back to Upload
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
