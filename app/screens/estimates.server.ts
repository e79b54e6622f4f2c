import { assessmentListQuerySchema } from "~/schemas/assessment";
import { answerSchema } from "~/schemas/customer-approval";
import { json } from "@remix-run/node";
import { estimateFormValidator, type EstimateConflict } from "~/schemas/estimate";
import { requestAnalysis } from "~/services/assessment-analysis.server";
import { approveAssessment, deleteAssessment, rejectAssessment } from "~/services/assessments.server";
import { DELETE_TOASTS, REJECTED_MESSAGE } from "~/schemas/toasts";
import type { Actor } from "~/services/actor";
import { contactChoices } from "~/services/contacts.server";
import type { AssessmentJson } from "~/services/assessments.server";
import { editEstimate, estimatesPage, getEstimate, STALE_ESTIMATE } from "~/services/estimates.server";
import { listEstimateLinks, revokeEstimateLink } from "~/services/estimate-links.server";
import { answerQuestion, listEstimateQuestions } from "~/services/estimate-questions.server";
import { redirectWithToast } from "~/services/session.server";
import { handleForm } from "~/utils/forms.server";
import { Stale } from "~/utils/domain-errors";
import { jsonError, screenAnswer } from "~/utils/http.server";
import { ESTIMATE_LIST_PARAMS, readEstimateDialog } from "~/utils/estimate-url";
import { listReturnTo, nullIfNotFound, readListPosition, readListUrl, writeAndReturn } from "./list-screen.server";
import { sendEstimateFromScreen } from "./send-estimate.server";

/** Cards per page (a multiple of the 1, 2 and 3 columns); the rest is paged. */
export const ESTIMATES_PAGE_SIZE = 24;

/** The server's time zone (`TZ`): the one "Sent Today" counts in, and the one dates are shown in. */
const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The status filter of the URL: one of the six, else none ("all", blank or anything unknown). */
function readStatus(url: URL) {
  const parsed = assessmentListQuerySchema.shape.status.safeParse(url.searchParams.get("status") ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

/** What /estimates shows: the page of the search and filter, the summary cards, and the estimate a dialog is about. */
export async function estimatesData(actor: Actor, requestUrl: string) {
  const url = new URL(requestUrl);
  const { q } = readListUrl(requestUrl);
  const position = readListPosition(requestUrl, ESTIMATES_PAGE_SIZE);
  const status = readStatus(url);
  const dialog = readEstimateDialog(url.searchParams);
  const [list, target] = await Promise.all([
    estimatesPage(actor, { q, status, ...position, pageSize: ESTIMATES_PAGE_SIZE }),
    dialog ? getEstimate(actor, dialog.id).catch(nullIfNotFound) : null,
  ]);
  // Edit Estimate's customer dropdown: the estimate owner's contacts; the detail's customer links.
  const [contacts, { links, decisions }, questions] = await Promise.all([
    dialog?.kind === "edit" && target ? contactChoices(actor, target.ownerId) : Promise.resolve([]),
    dialog?.kind === "view" && target ? listEstimateLinks(actor, target.id) : Promise.resolve({ links: [], decisions: [] }),
    dialog?.kind === "view" && target ? listEstimateQuestions(actor, target.id).then((l) => l.questions) : Promise.resolve([]),
  ]);
  return {
    q: q ?? "",
    status: status ?? "all",
    contacts,
    links,
    decisions,
    questions,
    pageSize: ESTIMATES_PAGE_SIZE,
    timeZone: SERVER_TIME_ZONE,
    ...list,
    target,
  };
}

const backTo = (requestUrl: string, changes: Record<string, string | null>) => {
  const url = new URL(requestUrl);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return listReturnTo(url.toString(), { keys: [...ESTIMATE_LIST_PARAMS, "view"] });
};

/**
 * Edit Estimate saved from a version that is no longer the stored one: nothing is saved, the form
 * comes back with what was typed (JavaScript off too) and says what was written since it was read.
 * It now carries the current revision: saving again, after reading that, is a deliberate choice.
 */
async function staleEdit(form: FormData, current: AssessmentJson, seenAudit: number | undefined) {
  const { submittedData, formId } = await estimateFormValidator.validate(form);
  const since = seenAudit === undefined || seenAudit > current.audit.length ? current.audit.length - 1 : seenAudit;
  const conflict: EstimateConflict = {
    entries: current.audit.slice(Math.max(0, since)).map(({ at, byName, action, note, changes }) => ({ at, byName, action, note, changes })),
    estimatedCost: current.estimatedCost,
  };
  return json(
    {
      formId,
      fieldErrors: {},
      repopulateFields: { ...submittedData, revision: String(current.revision), seenAudit: String(current.audit.length) },
      formError: STALE_ESTIMATE,
      conflict,
    },
    { status: 409 },
  );
}

/** The form posts of /estimates: `intent` = update | approve | reject | analyze | email | revoke-link (with `linkId`) | answer-question (with `questionId`, `message`) | delete, with the estimate's `id`. */
export async function estimatesAction(actor: Actor, request: Request) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const toDetail = (detailId: string) => backTo(request.url, { view: detailId });
  switch (form.get("intent")) {
    case "update":
      return handleForm(
        request,
        estimateFormValidator,
        async ({ revision, seenAudit, ...input }) => {
          let saved: Awaited<ReturnType<typeof editEstimate>>;
          try {
            saved = await editEstimate(actor, id, input, { readAt: revision === undefined ? undefined : [revision] });
          } catch (error) {
            if (error instanceof Stale) return staleEdit(form, error.current as AssessmentJson, seenAudit);
            // A message about a field goes back to the form; a refusal of the whole edit (being
            // analyzed, changed meanwhile, gone) comes back to the estimate as a toast.
            const refusal = await screenAnswer(error instanceof Response ? error.clone() : error);
            if (!refusal || refusal.fieldErrors) throw error;
            return redirectWithToast(request, toDetail(id), { title: "Error", message: refusal.message, color: "red" });
          }
          const supplement = saved.id !== id;
          return redirectWithToast(request, toDetail(saved.id), {
            title: supplement ? "Supplement Created" : "Estimate Updated",
            message: supplement
              ? `“${saved.title}” was sent already: your changes are version ${saved.version}.`
              : `“${saved.title}” has been updated.`,
            color: "green",
          });
        },
        form,
      );
    case "approve":
      return writeAndReturn(
        request,
        toDetail(id),
        async () => {
          const a = await approveAssessment(actor, id);
          return { title: "Assessment Approved", message: "“{{title}}” is reviewed and ready to send.", vars: { title: a.title } };
        },
        "Only a completed assessment can be approved",
      );
    case "reject":
      return writeAndReturn(
        request,
        toDetail(id),
        async () => {
          const a = await rejectAssessment(actor, id);
          return { title: "Assessment Rejected", message: REJECTED_MESSAGE, vars: { title: a.title } };
        },
        "Only a completed or reviewed assessment can be rejected",
      );
    case "email":
      return sendEstimateFromScreen(actor, request, id, toDetail(id));
    case "revoke-link":
      return writeAndReturn(
        request,
        toDetail(id),
        async () => {
          const link = await revokeEstimateLink(actor, id, String(form.get("linkId") ?? ""));
          return { title: "Link Revoked", message: `The customer link to version ${link.version} no longer opens the estimate.` };
        },
        "Failed to revoke the link",
      );
    case "answer-question": {
      // A blank or too long answer: back to the estimate with the field's message (nothing stored).
      const answer = answerSchema.safeParse({ message: form.get("message") });
      if (!answer.success) {
        return redirectWithToast(request, toDetail(id), { title: "Error", message: answer.error.issues[0]?.message ?? "Failed to send the answer", color: "red" });
      }
      return writeAndReturn(
        request,
        toDetail(id),
        async () => {
          const answered = await answerQuestion(actor, id, String(form.get("questionId") ?? ""), answer.data);
          return answered.emailLogId
            ? { title: "Answer Sent", message: "Your answer was emailed to {{to}} with the link to the estimate.", vars: { to: answered.answerTo ?? "" } }
            : { title: "Answer Saved", message: "The customer left no email address: your answer is on their estimate page." };
        },
        "Failed to send the answer",
      );
    }
    case "delete":
      return writeAndReturn(
        request,
        backTo(request.url, { view: null }),
        async () => {
          await deleteAssessment(actor, id);
          return DELETE_TOASTS.deleted;
        },
        DELETE_TOASTS.failed.message,
      );
    case "analyze":
      return writeAndReturn(
        request,
        toDetail(id),
        async () => {
          const a = await getEstimate(actor, id);
          if (!(await requestAnalysis(actor, id))) throw jsonError(409, "Only an assessment in Upload can be analyzed");
          return { title: "Analysis Started", message: "“{{title}}” is being analyzed: the result shows here when it is done.", vars: { title: a.title } };
        },
        "Only an assessment in Upload can be analyzed",
      );
    default:
      throw jsonError(400, "Unknown action");
  }
}

