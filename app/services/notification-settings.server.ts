import { User } from "~/models/user.server";
import { DEFAULT_NOTIFICATIONS, type NotificationSettings } from "~/schemas/email";
import type { Actor } from "./actor";
import { NotFound } from "~/utils/domain-errors";
import { authorize } from "./permissions.server";

/** Settings → Notifications: the account's switches, the defaults for those it never set. */
export async function getNotificationSettings(actor: Actor): Promise<NotificationSettings> {
  const user = await User.findById(actor.id).select({ notifications: 1 }).lean<{ notifications?: Partial<NotificationSettings> }>();
  return { ...DEFAULT_NOTIFICATIONS, ...user?.notifications };
}

/** Saves every switch; the mailer reads them when it is about to send a notice. */
export async function saveNotificationSettings(actor: Actor, input: NotificationSettings) {
  authorize(actor, "settings.write");
  const { matchedCount } = await User.updateOne({ _id: actor.id }, { $set: { notifications: input } });
  if (matchedCount !== 1) throw new NotFound("User not found");
  return getNotificationSettings(actor);
}
