import { redirect } from "@remix-run/node";
import { switchRoleValidator } from "~/schemas/auth";
import { REJECTED_MESSAGE } from "~/schemas/toasts";
import {
  approveAssessment,
  dashboardStats,
  listAssessments,
  rejectAssessment,
} from "~/services/assessments.server";
import type { Actor } from "~/services/actor";
import { recentCustomerDecisions } from "~/services/customer-approval.server";
import { activePackages } from "~/services/packages.server";
import { redirectWithToast } from "~/services/session.server";
import { switchRole } from "~/services/users.server";
import { wizardDraft } from "~/services/storage/draft.server";
import { vendorLabourRates } from "~/services/vendors.server";
import { hasForbiddenFieldName } from "~/utils/forms.server";
import { screenAnswer } from "~/utils/http.server";
import { unknownEmails } from "~/services/email-settle.server";
import { unansweredQuestions } from "~/services/estimate-questions.server";
import { sendEstimateFromScreen } from "./send-estimate.server";
import { settleEmailFromScreen } from "./settle-email.server";

/** Items listed under a workflow column (the count covers them all). */
const BOARD_ITEMS = 3;
const PANEL_ROWS = 3;

/** Everything the dashboard shows, each figure from the database. */
export async function dashboardData(actor: Actor) {
  const [stats, upload, review, complete, packages, rates, draft, decisions, unknown, questions] = await Promise.all([
    dashboardStats(actor),
    listAssessments(actor, { status: "uploaded", limit: BOARD_ITEMS }),
    listAssessments(actor, { status: "completed", limit: BOARD_ITEMS }),
    listAssessments(actor, { status: "reviewed", limit: BOARD_ITEMS }),
    activePackages(actor, PANEL_ROWS),
    vendorLabourRates(PANEL_ROWS),
    wizardDraft(actor),
    recentCustomerDecisions(actor),
    unknownEmails(actor),
    unansweredQuestions(actor),
  ]);
  // Files uploaded (Upload Media, or a wizard run left behind) and waiting for an assessment.
  return { stats, board: { upload, review, complete }, packages, rates, draftFiles: draft.length, decisions, unknownEmails: unknown, questions };
}

/** Runs a board action and comes back to the dashboard with its toast; a refusal (e.g. already approved) as an error toast. */
async function boardAction(request: Request, run: () => Promise<{ title: string; message: string }>) {
  try {
    return redirectWithToast(request, "/", { color: "green", ...(await run()) });
  } catch (error) {
    const failure = await screenAnswer(error);
    if (!failure) throw error;
    return redirectWithToast(request, "/", { title: "Error", message: failure.message, color: "red" });
  }
}

/** The dashboard's form posts: `intent` = switch-role | approve | reject | send | resend-email | mark-delivered. */
export async function dashboardAction(actor: Actor, request: Request) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  switch (form.get("intent")) {
    case "switch-role": {
      const failed = (message = "Failed to switch role") => redirectWithToast(request, "/", { title: "Error", message, color: "red" });
      if (hasForbiddenFieldName(form)) return failed();
      const result = await switchRoleValidator.validate(form);
      if (result.error) return failed();
      try {
        const { headers } = await switchRole(actor, result.data.targetRole, request);
        return redirect("/", { headers });
      } catch (error) {
        const failure = await screenAnswer(error);
        if (!failure) throw error;
        return failed(failure.message);
      }
    }
    case "approve":
      return boardAction(request, async () => {
        const a = await approveAssessment(actor, id);
        return { title: "Assessment Approved", message: "“{{title}}” is reviewed and ready to send.", vars: { title: a.title } };
      });
    case "reject":
      return boardAction(request, async () => {
        const a = await rejectAssessment(actor, id);
        return { title: "Assessment Rejected", message: REJECTED_MESSAGE, vars: { title: a.title } };
      });
    case "send":
      return sendEstimateFromScreen(actor, request, id, "/");
    case "resend-email":
    case "mark-delivered":
      return settleEmailFromScreen(actor, request, form, "/");
    default:
      return redirect("/");
  }
}
