import { json } from "@remix-run/node";
import { inviteSchema } from "~/schemas/members";
import type { Actor } from "~/services/actor";
import { inviteMember, listMembers, removeMember, updateMember } from "~/services/members.server";
import { can } from "~/services/permissions.server";
import { toTab, writeOrToast, type SettingsAction } from "./settings.server";

/** Settings → Team (the account's owner only): its members and a form to invite one. */
export async function teamTab(actor: Actor) {
  return { members: await listMembers(actor) };
}

/** Whether the caller sees the Team tab (the owner of a dealer or vendor account). */
export const seesTeam = (actor: Actor) => can(actor, "members.manage") && actor.realRole !== "admin";

const id = (form: FormData) => String(form.get("id") ?? "");

export const teamActions: Record<string, SettingsAction> = {
  "member-invite": ({ actor, request, form }) =>
    writeOrToast(request, "team", async () => {
      const parsed = inviteSchema.safeParse({ email: form.get("email"), role: form.get("role") });
      if (!parsed.success) return json({ formError: parsed.error.issues[0]?.message ?? "Invalid invite" }, { status: 400 });
      const { member, inviteUrl } = await inviteMember(actor, parsed.data, request);
      return json({ invited: { email: member.email, inviteUrl } }, { headers: { "Cache-Control": "no-store" } });
    }),
  "member-suspend": ({ actor, request, form }) =>
    writeOrToast(request, "team", async () => {
      await updateMember(actor, id(form), { suspended: true });
      return toTab(request, "team", { title: "Member suspended", message: "Their sessions and API tokens have ended.", color: "green" });
    }),
  "member-reactivate": ({ actor, request, form }) =>
    writeOrToast(request, "team", async () => {
      await updateMember(actor, id(form), { suspended: false });
      return toTab(request, "team", { title: "Member reactivated", message: "They can sign in again.", color: "green" });
    }),
  "member-remove": ({ actor, request, form }) =>
    writeOrToast(request, "team", async () => {
      await removeMember(actor, id(form));
      return toTab(request, "team", { title: "Member removed", message: "Their sessions and API tokens have ended.", color: "green" });
    }),
};
