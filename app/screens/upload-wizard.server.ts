import { redirect } from "@remix-run/node";
import { assessmentCreateValidator } from "~/schemas/assessment";
import { ANALYSIS_TOASTS } from "~/schemas/assessment-wizard";
import { messages } from "~/schemas/upload-limits";
import { requestAnalysis } from "~/services/assessment-analysis.server";
import { createAssessment, updateAssessment } from "~/services/assessments.server";
import type { Actor } from "~/services/actor";
import { redirectWithToast } from "~/services/session.server";
import { discardDraft, discardDraftCopies, removeUpload, wizardDraft } from "~/services/storage/draft.server";
import { receiveFormUploads } from "~/services/storage/form-uploads.server";
import { importFromUrl } from "~/services/storage/remote-import.server";
import { importUrlSchema } from "~/schemas/uploads";
import { completeFromVin } from "~/services/vin.server";
import { VIN_TEXT } from "~/schemas/vin";
import { handleForm } from "~/utils/forms.server";
import { sendEstimateFromScreen } from "./send-estimate.server";
import { isRefusal, refusalMessage } from "~/utils/domain-errors";

/** Where a no-JS upload form may send the user back to (never an outside URL). */
const safeRedirect = (value: string | null) => (value === "/" || value === "/upload" ? value : "/upload");

const assessmentUrl = (id: string) => `/upload?assessment=${encodeURIComponent(id)}`;

/** The wizard after an upload or a removal in this visit: its list is this run's, not a draft from before. */
export const WIZARD_IN_USE = "/upload?added=1";

/** The no-JS uploader: files are streamed into storage as the multipart form arrives. */
async function receiveFiles(actor: Actor, request: Request) {
  const url = new URL(request.url);
  const purpose = url.searchParams.get("purpose") === "dashboard" ? "dashboard" : "wizard";
  const back = safeRedirect(url.searchParams.get("redirectTo"));
  const wizard = back === "/upload" ? WIZARD_IN_USE : back;
  const { stored, errors } = await receiveFormUploads(actor, request, purpose);
  if (errors.length > 0) {
    const done = stored.length > 0 ? `${messages.uploaded(stored.length)}. ` : "";
    return redirectWithToast(request, back === "/" ? "/?upload=1" : wizard, {
      title: "Upload Error",
      message: `${done}${errors.join(" ")}`,
      color: "red",
    });
  }
  if (stored.length === 0) return redirectWithToast(request, wizard, ANALYSIS_TOASTS.noFiles);
  return redirectWithToast(request, wizard, {
    title: "Upload Complete",
    message: purpose === "dashboard" ? messages.dashboardComplete : messages.uploaded(stored.length),
  });
}

/** "Add from a link" (no JS too): the server fetches the file; a refusal comes back as the upload's error toast. */
async function importLink(actor: Actor, request: Request, form: FormData) {
  const parsed = importUrlSchema.safeParse({ url: form.get("url") ?? undefined });
  const error = (message: string) => redirectWithToast(request, WIZARD_IN_USE, { title: "Upload Error", message, color: "red" });
  if (!parsed.success) return error(parsed.error.issues[0]?.message ?? "Enter a link to a photo or video");
  try {
    await importFromUrl(actor, { url: parsed.data.url, purpose: "wizard" });
  } catch (failure) {
    if (!isRefusal(failure)) throw failure;
    return error(await refusalMessage(failure));
  }
  return redirectWithToast(request, WIZARD_IN_USE, { title: "Upload Complete", message: messages.uploaded(1) });
}

/**
 * Creates the assessment (or saves the one whose analysis failed) and queues its analysis, then
 * shows the analyzing step. A refusal about a field comes back on that field, any other one above
 * the form (the server's message, as the spec's 'Error' toast would say it).
 */
function submitDetails(actor: Actor, request: Request, form: FormData, retryId: string | null) {
  return handleForm(
    request,
    assessmentCreateValidator,
    async (input) => {
      const { mediaUrls, ...typed } = input;
      // Without JavaScript the VIN is decoded here: empty vehicle fields filled, its warning shown next.
      const { fields, warning, vehicle } = await completeFromVin(typed);
      const assessment = retryId ? await updateAssessment(actor, retryId, fields) : await createAssessment(actor, { ...fields, mediaUrls });
      // Copies of the files uploaded again stood behind them on the list: they go with the run.
      if (!retryId) await discardDraftCopies(actor, assessment.mediaUrls.map((u) => u.replace(/^\/media\//, "")));
      await requestAnalysis(actor, assessment.id);
      if (!warning) return redirect(assessmentUrl(assessment.id));
      return redirectWithToast(request, assessmentUrl(assessment.id), { title: VIN_TEXT.toastTitle, message: warning, color: "yellow", vars: { vehicle } });
    },
    form,
  );
}

/** The wizard's form posts: `intent` = remove | discard | continue | create | retry | new | send, or a no-JS upload. */
export async function uploadWizardAction(actor: Actor, request: Request) {
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) return receiveFiles(actor, request);

  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  switch (form.get("intent")) {
    case "remove":
      try {
        await discardDraftCopies(actor, [id]);
        await removeUpload(actor, id);
      } catch (error) {
        if (!isRefusal(error)) throw error;
      }
      return redirect(WIZARD_IN_USE);
    case "discard":
      // "Start over": the draft's files go, the wizard starts empty.
      await discardDraft(actor);
      return redirect(WIZARD_IN_USE);
    case "link":
      return importLink(actor, request, form);
    case "continue":
      if ((await wizardDraft(actor)).length === 0) return redirectWithToast(request, "/upload", ANALYSIS_TOASTS.noFiles);
      return redirect("/upload?step=details");
    case "create":
      if (!form.has("mediaUrls[0]")) return redirectWithToast(request, "/upload", ANALYSIS_TOASTS.noFiles);
      return submitDetails(actor, request, form, null);
    case "retry":
      return submitDetails(actor, request, form, id);
    case "send":
      return sendEstimateFromScreen(actor, request, id, assessmentUrl(id));
    default:
      // "New Assessment": the files went with the last assessment, so the wizard starts empty.
      return redirect("/upload");
  }
}
