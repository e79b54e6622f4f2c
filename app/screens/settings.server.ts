import type { Actor } from "~/services/actor";
import { redirectWithToast, type Toast } from "~/services/session.server";
import { screenAnswer } from "~/utils/http.server";

/** What a Settings tab's form-post handler gets; each tab module exports its handlers by intent. */
export interface SettingsActionArgs {
  actor: Actor;
  request: Request;
  form: FormData;
}
export type SettingsAction = (args: SettingsActionArgs) => Promise<Response>;

/** Back to a tab with a toast (the post-redirect-get every tab's form uses). */
export const toTab = (request: Request, tab: string, toast: Toast, search = "") =>
  redirectWithToast(request, `/settings?tab=${tab}${search}`, toast);

/** Runs a write; a service refusal (thrown 4xx) comes back as the failure toast with its reason. */
export async function writeOrToast(request: Request, tab: string, write: () => Promise<Response>, failureTitle = "Error") {
  try {
    return await write();
  } catch (error) {
    const failure = await screenAnswer(error);
    if (!failure) throw error;
    return toTab(request, tab, { title: failureTitle, message: failure.message, color: "red" });
  }
}
