import { toPublicUser } from "~/models/user.server";
import { defaultVendorValidator, profileValidator } from "~/schemas/settings";
import type { Actor } from "~/services/actor";
import { updatePreferences, updateProfile } from "~/services/settings.server";
import { listVendors } from "~/services/vendors.server";
import { estimateSettingsValidator } from "~/schemas/estimate-settings";
import { estimateSettingsOf, removeLogo, updateEstimateSettings, uploadLogo } from "~/services/estimate-settings.server";
import { handleForm } from "~/utils/forms.server";
import { toTab, writeOrToast, type SettingsAction } from "./settings.server";

/** Settings → Profile: the account, and the vendors for the default-vendor choice. */
export async function profileTab(actor: Actor) {
  const [vendors, estimateSettings] = await Promise.all([listVendors(), estimateSettingsOf(actor.id)]);
  return { user: toPublicUser(actor.user), role: actor.realRole, vendors: vendors.map(({ id, name }) => ({ id, name })), estimateSettings };
}

/** The logo form (multipart, its own route): a new logo, or `intent=remove-logo` (a plain post). */
export async function logoAction(actor: Actor, request: Request) {
  const removing = (request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded");
  return writeOrToast(request, "profile", async () => {
    if (removing) {
      await removeLogo(actor);
      return toTab(request, "profile", { title: "Logo Removed", message: "Your estimates print without a logo." });
    }
    await uploadLogo(actor, request);
    return toTab(request, "profile", { title: "Logo Uploaded", message: "Your estimates print this logo." });
  });
}

export const profileActions: Record<string, SettingsAction> = {
  "update-profile": ({ actor, request, form }) =>
    handleForm(
      request,
      profileValidator,
      async (input) => {
        await updateProfile(actor, input);
        return toTab(request, "profile", { title: "Profile Updated", message: "Your profile has been updated." });
      },
      form,
    ),
  "estimate-settings": ({ actor, request, form }) =>
    handleForm(
      request,
      estimateSettingsValidator,
      async (input) => {
        await updateEstimateSettings(actor, input);
        return toTab(request, "profile", { title: "Settings Saved", message: "New estimates use these tax rates, terms and validity." });
      },
      form,
    ),
  "default-vendor": ({ actor, request, form }) =>
    writeOrToast(request, "profile", async () => {
      const result = await defaultVendorValidator.validate(form);
      if (result.error) return toTab(request, "profile", { title: "Error", message: "Choose a vendor from the list", color: "red" });
      await updatePreferences(actor, { defaultVendorId: result.data.defaultVendorId });
      return toTab(request, "profile", { title: "Settings Saved", message: "The upload wizard will preselect this vendor." });
    }),
};
