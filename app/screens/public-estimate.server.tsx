import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { LinkUnavailableDocument, PublicEstimateDocument, type FormState } from "~/components/public-estimate/PublicEstimateDocument";
import {
  admitPublicRequest,
  askQuestion,
  decideFromPage,
  openEstimatePage,
  PublicLinkError,
  type PublicClient,
} from "~/services/customer-approval.server";
import { clientMessages, isLanguage, languageFromHeader } from "~/services/i18n.server";
import { isDbUnavailableError, isStorageUnavailableError, serviceUnavailable } from "~/utils/db-errors.server";
import { I18nProvider } from "~/utils/i18n";
import { publicOrigin } from "~/services/storage/names.server";
import { assertSameOrigin } from "~/utils/request.server";
import { apiAnswer } from "~/utils/http.server";

// The glue between the public estimate routes (/e/{token}…) and the customer-approval service: HTTP
// status, headers and the whole HTML document (no Remix app shell: docs/decisions/0019).

/** Nothing else may load, frame or be posted to from these pages (Referer: same-origin, set for every answer, so the token never leaves the site). */
const HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy":
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex, nofollow",
};

/** A whole page in `language`: its words from the catalogue (the customer's page has no script to translate it later). */
export function htmlDocument(element: ReactElement, language: string, status = 200, extra: Record<string, string> = {}) {
  const lng = isLanguage(language) ? language : "en";
  const markup = renderToStaticMarkup(
    <I18nProvider messages={clientMessages(lng)} language={lng}>
      {element}
    </I18nProvider>,
  );
  return new Response(`<!DOCTYPE html>${markup}`, { status, headers: { ...HEADERS, ...extra, "Content-Language": lng } });
}

export function clientOf(request: Request, clientIp: string | undefined): PublicClient {
  return { ip: clientIp ?? "unknown", userAgent: request.headers.get("User-Agent") ?? "", origin: publicOrigin(request) };
}

/**
 * A PublicLinkError as its page (`request`: its Accept-Language picks the page's language; without
 * it, no page: a bare status); a database or storage outage as 503; anything else is rethrown.
 */
export function unavailableResponse(error: unknown, request?: Request): Response {
  if (error instanceof PublicLinkError) {
    const retry: Record<string, string> = error.detail.retryAfter ? { "Retry-After": String(error.detail.retryAfter) } : {};
    if (!request) return new Response(null, { status: error.status, headers: { "Cache-Control": "no-store", ...retry } });
    const language = languageFromHeader(request.headers.get("Accept-Language"));
    return htmlDocument(
      <LinkUnavailableDocument reason={error.reason} dealer={error.detail.dealer ?? null} retryAfter={error.detail.retryAfter} newer={error.detail.newer} language={language} />,
      language,
      error.status,
      retry,
    );
  }
  if (error instanceof Response) return error;
  const answer = apiAnswer(error);
  if (answer) return answer;
  if (isDbUnavailableError(error) || isStorageUnavailableError(error)) return serviceUnavailable();
  throw error;
}

const DONE = new Set(["approved", "declined", "question"]);

async function renderPage(token: string, request: Request, form: FormState, status: number) {
  const page = await openEstimatePage(token);
  const doneParam = new URL(request.url).searchParams.get("done");
  const done = doneParam && DONE.has(doneParam) ? doneParam : null;
  return htmlDocument(<PublicEstimateDocument page={page} base={`/e/${token}`} form={form} done={done} />, page.language, status);
}

/** `GET /e/{token}`. */
export async function publicEstimateLoader(request: Request, token: string, client: PublicClient) {
  try {
    await admitPublicRequest({ ip: client.ip, token });
    return await renderPage(token, request, {}, 200);
  } catch (error) {
    return unavailableResponse(error, request);
  }
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

/**
 * `POST /e/{token}` (a plain form: intent approve, decline or question). Accepted: 303 back to the
 * page (a reload does not post again); refused by validation: the page again, 400, with the messages
 * and what was typed.
 */
export async function publicEstimateAction(request: Request, token: string, client: PublicClient) {
  try {
    assertSameOrigin(request);
    await admitPublicRequest({ ip: client.ip, token, answer: true });
    const form = await request.formData();
    const intent = field(form, "intent");
    const text = { signatureName: field(form, "signatureName"), termsAccepted: field(form, "termsAccepted"), reason: field(form, "reason"), message: field(form, "message"), replyEmail: field(form, "replyEmail") };
    const shown = Object.fromEntries(Object.entries(text).filter(([, v]) => v !== undefined)) as Record<string, string>;
    // The optional lines ticked (one value per box, docs/decisions/0063).
    const chosen = form.getAll("optionalLines").filter((v): v is string => typeof v === "string");
    const values = { ...text, optionalLines: chosen };
    // "Update the total": the page again with the total for what is ticked, nothing recorded.
    if (intent === "approve" && field(form, "recalculate") !== undefined) return await renderPage(token, request, { intent, values: shown, chosen }, 200);
    let result: { ok: true } | { ok: false; errors: Record<string, string> };
    let done: string;
    if (intent === "approve" || intent === "decline") {
      done = intent === "approve" ? "approved" : "declined";
      result = await decideFromPage(token, intent === "approve" ? "approved" : "declined", values, client);
    } else if (intent === "question") {
      done = "question";
      result = await askQuestion(token, values, client);
    } else {
      return await renderPage(token, request, {}, 400);
    }
    if (!result.ok) return await renderPage(token, request, { intent, errors: result.errors, values: shown, chosen }, 400);
    return new Response(null, { status: 303, headers: { Location: `/e/${token}?done=${done}`, "Cache-Control": "no-store" } });
  } catch (error) {
    return unavailableResponse(error, request);
  }
}
