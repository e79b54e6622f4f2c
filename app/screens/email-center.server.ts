import { json } from "@remix-run/node";
import { findContacts } from "~/models/contact.server";
import { findTemplates } from "~/models/email-template.server";
import { scopeFor } from "~/models/owner-scope.server";
import { EMAIL_TOASTS, emailTemplateValidator, type EmailTemplateInput } from "~/schemas/email";
import { listAssessments } from "~/services/assessments.server";
import type { Actor } from "~/services/actor";
import { countEmailLogs, emailLogsPage, emailLogStats, getEmailLog } from "~/services/email-logs.server";
import { SAMPLE_CONTEXT, renderTemplate } from "~/services/email-render.server";
import {
  copyEmailTemplate,
  createEmailTemplate,
  deleteEmailTemplate,
  emailTemplateFigures,
  emailTemplatesPage,
  getEmailTemplate,
  previewEmailTemplate,
  updateEmailTemplate,
} from "~/services/email-templates.server";
import { testConnection } from "~/services/mail-config.server";
import { redirectWithToast } from "~/services/session.server";
import { handleForm } from "~/utils/forms.server";
import { EMAIL_LIST_PARAMS, readEmailDialog, readEmailTab } from "~/utils/email-url";
import { jsonError, screenAnswer } from "~/utils/http.server";
import { listReturnTo, nullIfNotFound, readListPosition, readListUrl, writeAndReturn } from "./list-screen.server";
import { confirmOrSend } from "./send-estimate.server";
import { settleEmailFromScreen } from "./settle-email.server";

/** Cards per page of either tab. */
export const EMAIL_PAGE_SIZE = 24;
/** What the Compose dialog offers at most (newest first). */
const COMPOSE_OPTIONS = 200;
/** Assessments a message can be about (design: sending is allowed from completed or reviewed; sent again). */
const SENDABLE = ["completed", "reviewed", "sent"] as const;

/** The server's time zone (`TZ`): log times are shown in it, and "Emails Sent Today" counts from its midnight. */
const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

async function composeOptions(actor: Actor) {
  const scope = scopeFor(actor);
  const [assessments, contacts, templates] = await Promise.all([
    Promise.all(SENDABLE.map((status) => listAssessments(actor, { status, limit: COMPOSE_OPTIONS }))),
    findContacts({ scope, limit: 500 }),
    findTemplates({ scope, limit: COMPOSE_OPTIONS }),
  ]);
  return {
    assessments: assessments
      .flat()
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .slice(0, COMPOSE_OPTIONS)
      .map((a) => ({ id: a.id, title: a.title, contactId: a.contactId })),
    contacts: contacts.map((c) => ({ id: String(c._id), name: `${c.firstName} ${c.lastName}`, email: c.email })),
    templates: templates.map((t) => ({ id: String(t._id), name: t.name, isDefault: Boolean(t.isDefault) })),
  };
}

/** What /email shows: both tabs' counts and the open tab's page, the four cards, the indicator, the open dialog's data. */
export async function emailCenterData(actor: Actor, requestUrl: string) {
  const url = new URL(requestUrl);
  const { q } = readListUrl(requestUrl);
  const tab = readEmailTab(url.searchParams);
  const dialog = readEmailDialog(url.searchParams);
  // The open tab's page by cursor (or an old `?page=`; a bad cursor is a 400 before any read); of the
  // other tab only its figures (its label's count, the template cards).
  const position = readListPosition(requestUrl, EMAIL_PAGE_SIZE);
  const closed = { newer: null, older: null };
  const [templates, logs, logStats, connection] = await Promise.all([
    tab === "templates"
      ? emailTemplatesPage(actor, { q, ...position, pageSize: EMAIL_PAGE_SIZE })
      : emailTemplateFigures(actor, q).then((figures) => ({ ...figures, ...closed, templates: [] })),
    tab === "logs"
      ? emailLogsPage(actor, { q, ...position, pageSize: EMAIL_PAGE_SIZE })
      : countEmailLogs(actor, q).then((matched) => ({ matched, ...closed, logs: [] })),
    emailLogStats(actor),
    testConnection(actor),
  ]);
  const template =
    dialog && (dialog.kind === "edit" || dialog.kind === "view" || dialog.kind === "delete")
      ? await getEmailTemplate(actor, dialog.id).catch(nullIfNotFound)
      : null;
  const log = dialog?.kind === "log" ? await getEmailLog(actor, dialog.id).catch(nullIfNotFound) : null;
  // The dialog's first preview (the template as saved, with sample data); the browser updates it as you type.
  const preview =
    template && (dialog?.kind === "edit" || dialog?.kind === "view")
      ? (() => {
          try {
            const warnings: string[] = [];
            return { ...renderTemplate(actor.id, template, SAMPLE_CONTEXT), warnings, error: null };
          } catch {
            return null;
          }
        })()
      : null;
  return {
    tab,
    timeZone: SERVER_TIME_ZONE,
    q: q ?? "",
    templates,
    logs,
    stats: { totalTemplates: templates.stats.total, defaultTemplates: templates.stats.defaults, ...logStats },
    connection,
    template,
    log,
    preview,
    compose: dialog?.kind === "compose" ? await composeOptions(actor) : null,
  };
}

const createdMessage = (name: string, done: string, warnings: string[]) =>
  `“${name}” has been ${done}.${warnings.length > 0 ? ` Warning: ${warnings.join("; ")}.` : ""}`;

/** Renders the form's template with sample data for the page (the no-JS Preview button); a refusal shows in its place. */
async function previewAction(input: EmailTemplateInput, actor: Actor) {
  try {
    const preview = await previewEmailTemplate(actor, input);
    return json({ preview: { ...preview, error: null }, values: input });
  } catch (error) {
    const failure = await screenAnswer(error);
    if (!failure) throw error;
    return json({ preview: { subject: "", html: "", warnings: [], error: failure.message }, values: input });
  }
}

/**
 * The form posts of /email: `intent` = create-template | update-template | delete | copy | send |
 * resend-email | mark-delivered (an email of unknown delivery);
 * a template form with `preview` set renders the preview instead of saving (JavaScript off).
 */
export async function emailCenterAction(actor: Actor, request: Request) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const back = listReturnTo(request.url, { keys: EMAIL_LIST_PARAMS });
  const templates = listReturnTo(request.url, { keys: ["q"] });
  switch (form.get("intent")) {
    case "create-template":
    case "update-template": {
      const creating = form.get("intent") === "create-template";
      return handleForm(
        request,
        emailTemplateValidator,
        async (input) => {
          if (form.has("preview")) return previewAction(input, actor);
          if (creating) {
            const { template, warnings } = await createEmailTemplate(actor, input);
            return redirectWithToast(request, templates, { ...EMAIL_TOASTS.templateCreated, message: createdMessage(template.name, "created", warnings) });
          }
          const { template, warnings } = await updateEmailTemplate(actor, id, input);
          return redirectWithToast(request, back, { title: "Template Updated", message: createdMessage(template.name, "updated", warnings), color: "green" });
        },
        form,
      );
    }
    case "copy":
      return writeAndReturn(
        request,
        templates,
        async () => {
          const copy = await copyEmailTemplate(actor, id);
          return { title: "Template Copied", message: "“{{name}}” has been created.", vars: { name: copy.name } };
        },
        "Failed to copy template",
      );
    case "delete":
      return writeAndReturn(
        request,
        back,
        async () => {
          const deleted = await deleteEmailTemplate(actor, id);
          return { title: "Template Deleted", message: "“{{name}}” has been deleted.", vars: { name: deleted.name } };
        },
        "Failed to delete template",
      );
    case "send":
      // Compose's first submit shows the confirm step in the dialog; its second sends (issue 40 item 3).
      return confirmOrSend(actor, request, form, "/email?tab=logs");
    case "resend-email":
    case "mark-delivered":
      return settleEmailFromScreen(actor, request, form, back);
    default:
      throw jsonError(400, "Unknown action");
  }
}
