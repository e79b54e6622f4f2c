import { toPublicUser } from "~/models/user.server";
import { defaultVendorValidator, profileValidator } from "~/schemas/settings";
import type { Actor } from "~/services/auth.server";
import { updatePreferences, updateProfile } from "~/services/settings.server";
import { listVendors } from "~/services/vendors.server";
import { handleForm } from "~/utils/forms.server";
import { toTab, writeOrToast, type SettingsAction } from "./settings.server";

/** Settings → Profile: the account, and the vendors for the default-vendor choice. */
export async function profileTab(actor: Actor) {
  const vendors = await listVendors();
  return { user: toPublicUser(actor.user), role: actor.realRole, vendors: vendors.map(({ id, name }) => ({ id, name })) };
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
  "default-vendor": ({ actor, request, form }) =>
    writeOrToast(request, "profile", async () => {
      const result = await defaultVendorValidator.validate(form);
      if (result.error) return toTab(request, "profile", { title: "Error", message: "Choose a vendor from the list", color: "red" });
      await updatePreferences(actor, { defaultVendorId: result.data.defaultVendorId });
      return toTab(request, "profile", { title: "Settings Saved", message: "The upload wizard will preselect this vendor." });
    }),
};
