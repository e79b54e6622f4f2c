import type { ReactNode } from "react";
import type { DealerCard, PublicEstimatePage } from "~/services/customer-approval.server";
import type { LineChange, SupplementChanges } from "~/services/supplement-changes.server";
import { formatCents, formatDollars } from "~/utils/estimate-lines";
import { approvalOf } from "~/utils/estimate-approval";
import { lineTotalCents } from "~/utils/estimate-sheet";
import { useT } from "~/utils/i18n";
import { formattersFor } from "~/utils/locale-format";
import { Evidence, evidenceByDamage, PublicEstimateLines } from "./PublicEstimateLines";

// The customer's estimate page (/e/{token}) and its "not available" pages: whole HTML documents
// rendered on the server, phone-first, with no script and one small inline style sheet, so the
// first load on a slow line is this document and the photos only (docs/decisions/0019).

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#f3f4f6}
main{max-width:40rem;margin:0 auto;padding:1rem;background:#fff;min-height:100vh}
header{border-bottom:1px solid #e5e7eb;padding-bottom:.5rem;margin-bottom:1rem}
h1{font-size:1.5rem;margin:.25rem 0}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.dim{color:#4b5563;font-size:.9rem}
.total{font-size:1.75rem;font-weight:700;margin:.5rem 0}
.lines{width:100%;border-collapse:collapse}
.lines td,.lines th{padding:.4rem 0;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:top}
.group{color:#4b5563;font-size:.9rem;padding-top:.75rem!important}
.totals th{font-weight:400}
.amount{text-align:right!important;white-space:nowrap;padding-left:1rem!important}
.damages{padding-left:1.25rem}
.photos{display:grid;grid-template-columns:repeat(2,1fr);gap:.5rem}
.photos figure{margin:0}
.photos img{width:100%;height:auto;border-radius:.375rem;background:#e5e7eb;display:block}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=email],textarea{width:100%;font:inherit;padding:.6rem;border:1px solid #9ca3af;border-radius:.375rem}
textarea{min-height:5rem}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
.check input{width:1.4rem;height:1.4rem;margin:0;flex:none}
button{font:inherit;font-weight:600;width:100%;padding:.8rem;margin-top:.75rem;border:0;border-radius:.375rem;color:#fff;background:#1d4ed8;cursor:pointer}
button.decline{background:#b91c1c}
button.secondary{background:#374151}
.error{color:#b91c1c;font-size:.9rem;margin:.25rem 0 0}
.banner{padding:.75rem;border-radius:.375rem;margin:1rem 0;font-weight:600}
.ok{background:#dcfce7;color:#14532d}
.no{background:#fee2e2;color:#7f1d1d}
.info{background:#dbeafe;color:#1e3a8a}
details{border:1px solid #e5e7eb;border-radius:.375rem;padding:.5rem .75rem;margin:.75rem 0}
summary{font-weight:600;cursor:pointer}
details.basis{border:0;padding:0;margin:.25rem 0 0;font-size:.9rem;color:#4b5563}
details.basis summary{font-weight:400;color:#1d4ed8}
details.basis ul{margin:.25rem 0 0;padding-left:1.25rem}
a{color:#1d4ed8}
.changes{border:2px solid #1e3a8a;border-radius:.375rem;padding:.75rem;margin:1rem 0}
.changes h2{margin:0 0 .5rem}
.changes h3{font-size:1rem;margin:.5rem 0 0}
.changes ul{margin:.25rem 0 .5rem;padding-left:1.25rem}
.changes li{overflow-wrap:anywhere}
.changes .figures{width:100%;border-collapse:collapse}
.changes .figures th,.changes .figures td{padding:.25rem 0;text-align:left}
.thread{list-style:none;margin:0;padding:0}
.thread>li{border-top:1px solid #e5e7eb;padding:.5rem 0}
.thread p{margin:.25rem 0}
.said{white-space:pre-wrap;overflow-wrap:anywhere}
.answer{border-left:3px solid #1d4ed8;padding-left:.75rem;margin:.5rem 0 0}
header .logo{display:block;max-width:12rem;max-height:4rem;width:auto;height:auto;margin-bottom:.5rem}
.terms{white-space:pre-line;font-size:.9rem;border:1px solid #e5e7eb;border-radius:.375rem;padding:.5rem .75rem;max-height:20rem;overflow-y:auto}
.tag{display:inline-block;font-size:.75rem;font-weight:600;padding:0 .4rem;border-radius:.25rem;background:#fef3c7;color:#78350f}
.evidence{display:flex;gap:.5rem;align-items:center;margin:.35rem 0 0}
.evidence img{width:6rem;height:4.5rem;object-fit:cover;border-radius:.25rem;background:#e5e7eb;flex:none}
fieldset.choices{border:1px solid #e5e7eb;border-radius:.375rem;padding:.5rem .75rem;margin:.75rem 0}
fieldset.choices legend{font-weight:600;padding:0 .25rem}
.choice{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;margin:.5rem 0}
.choice input{width:1.4rem;height:1.4rem;margin:0;flex:none}
.choice .what{flex:1;min-width:0;overflow-wrap:anywhere}
.approved-total{font-size:1.2rem;font-weight:700;margin:.75rem 0 0}
.per-line{margin:.5rem 0 0;padding-left:1.25rem;font-weight:400}
footer{margin-top:2rem;border-top:1px solid #e5e7eb;padding-top:.5rem}
`;

/**
 * Dates as the link's PDF prints them: in its language (the estimate's, else the account's: decided when
 * the link was made and kept with it), the day in UTC and a time as HH:MM UTC. Made on the server only
 * (the page has no script), so nothing depends on the customer's browser. Amounts stay as the PDF
 * prints them (US dollars in the US way in every language).
 */
function datesIn(language: string) {
  const { date } = formattersFor(language);
  return { dateText: (iso: string) => date(iso), timeText: (iso: string) => `${date(iso)} ${new Date(iso).toISOString().slice(11, 16)}` };
}

function Shell({ title, language, children }: { title: string; language: string; children: ReactNode }) {
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

/** `logo`: the logo's address, when the dealer has one (the PDF's header prints it too). */
function Dealer({ dealer, logo }: { dealer: DealerCard | null; logo?: string | null }) {
  const t = useT();
  if (!dealer) return null;
  return (
    <header>
      {logo ? <img className="logo" src={logo} alt={t("{{name}} logo", { name: dealer.name })} data-testid="dealer-logo" /> : null}
      <strong data-testid="dealer-name">{dealer.name}</strong>
      <div className="dim">
        {[dealer.address, dealer.phone, dealer.email].filter(Boolean).join(" · ")}
      </div>
    </header>
  );
}

export interface FormState {
  intent?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
  /** The optional lines ticked in the approve form as posted (kept when the page comes back). */
  chosen?: string[];
}

function FieldError({ id, message }: { id: string; message?: string }) {
  const t = useT();
  return message ? (
    <p className="error" id={id} role="alert">
      {t(message)}
    </p>
  ) : null;
}

const signedCents = (cents: number) => (cents > 0 ? `+${formatCents(cents)}` : cents < 0 ? `−${formatCents(-cents)}` : formatCents(0));

function ChangeList({ title, items, testId, show }: { title: string; items: LineChange[]; testId: string; show: (c: LineChange) => string }) {
  if (items.length === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul data-testid={testId}>
        {items.map((c) => (
          <li key={c.id}>{show(c)}</li>
        ))}
      </ul>
    </>
  );
}

/**
 * A supplement's changes since the version the customer approved (else the one last sent to them):
 * lines added, removed and changed (old → new), the new total and the difference. Plain markup.
 */
function WhatChanged({ changes }: { changes: SupplementChanges }) {
  const t = useT();
  const { since } = changes;
  const version = { label: since.versionLabel, number: since.estimateNumber };
  const none = changes.added.length + changes.removed.length + changes.changed.length === 0;
  return (
    <section className="changes" aria-labelledby="changes-title" data-testid="supplement-changes">
      <h2 id="changes-title">
        {since.approved
          ? t("What changed since the estimate you approved ({{label}}, No. {{number}})", version)
          : t("What changed since the estimate we sent you ({{label}}, No. {{number}})", version)}
      </h2>
      <p>{since.approved ? t("This is a revised estimate: it replaces the one you approved.") : t("This is a revised estimate: it replaces the one we sent you.")}</p>
      {none ? <p>{t("No line changed; the figures below did.")}</p> : null}
      <ChangeList title={t("Lines added")} items={changes.added} testId="lines-added" show={(c) => `${c.label}: ${formatCents(c.afterCents)}`} />
      <ChangeList title={t("Lines removed")} items={changes.removed} testId="lines-removed" show={(c) => `${c.label}: ${formatCents(c.beforeCents)}`} />
      <ChangeList
        title={t("Lines changed")}
        items={changes.changed}
        testId="lines-changed"
        show={(c) => `${c.previousLabel ? `${c.previousLabel} → ` : ""}${c.label}: ${formatCents(c.beforeCents)} → ${formatCents(c.afterCents)}`}
      />
      <table className="figures">
        <tbody>
          <tr>
            <th scope="row">{since.approved ? t("Approved total ({{label}})", version) : t("Previous total ({{label}})", version)}</th>
            <td className="amount" data-testid="previous-total">{formatCents(since.totalCents)}</td>
          </tr>
          <tr>
            <th scope="row">{t("New total")}</th>
            <td className="amount" data-testid="new-total">{formatCents(changes.totalCents)}</td>
          </tr>
          <tr>
            <th scope="row">{t("Difference")}</th>
            <td className="amount" data-testid="total-difference">{changes.differenceCents === null ? t("TBD") : signedCents(changes.differenceCents)}</td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}

type Translate = ReturnType<typeof useT>;

/** The pictures' names in the page's language: "Foto 2", "Image 1 · 0:02.5" (the service names them in English). */
function namedPictures<P extends { frame: { n: number; at: string } | null }>(photos: P[], t: Translate) {
  let photo = 0;
  return photos.map((p) => {
    if (p.frame) return { ...p, label: t("Frame {{n}} · {{at}}", p.frame), alt: t("Frame {{n}} of the video, at {{at}}", p.frame) };
    const n = ++photo;
    return { ...p, label: t("Photo {{n}}", { n }), alt: t("Photo {{n}} of the vehicle", { n }) };
  });
}

/**
 * What the customer signs, as one sentence per case (a translator sees each whole): with optional
 * lines or not, and the terms shown above, only in the PDF (null), or none.
 */
function acceptance(t: Translate, a: { lines: boolean; terms: string | null | undefined; dealer: string; required: string; total: string }) {
  const vars = { dealer: a.dealer, required: a.required, total: a.total };
  if (a.lines) {
    if (a.terms) return t("I accept the required work of this estimate ({{required}}) and the optional lines I ticked, each at the price shown, and the terms above, and I authorise {{dealer}} to carry out that work.", vars);
    if (a.terms === null) return t("I accept the required work of this estimate ({{required}}) and the optional lines I ticked, each at the price shown, and its terms (see the PDF), and I authorise {{dealer}} to carry out that work.", vars);
    return t("I accept the required work of this estimate ({{required}}) and the optional lines I ticked, each at the price shown, and I authorise {{dealer}} to carry out that work.", vars);
  }
  if (a.terms) return t("I accept this estimate and the terms above, for a total of {{total}}, and I authorise {{dealer}} to carry out the work.", vars);
  if (a.terms === null) return t("I accept this estimate and its terms (see the PDF), for a total of {{total}}, and I authorise {{dealer}} to carry out the work.", vars);
  return t("I accept this estimate, for a total of {{total}}, and I authorise {{dealer}} to carry out the work.", vars);
}

/** `done`: what the customer just did (after the redirect), shown as a banner. */
export function PublicEstimateDocument({
  page,
  base,
  form,
  done,
}: {
  page: PublicEstimatePage;
  base: string;
  form: FormState;
  done: string | null;
}) {
  const t = useT();
  const { estimate, dealer, decision, customer, terms } = page;
  const { dateText, timeText } = datesIn(page.language);
  const dealerName = dealer?.name ?? t("the dealer");
  const errors = form.intent ? (form.errors ?? {}) : {};
  const values = form.values ?? {};
  const err = (intent: string, field: string) => (form.intent === intent ? errors[field] : undefined);
  const photos = namedPictures(estimate.photos, t);
  const evidence = evidenceByDamage(photos);
  // Approval line by line (docs/decisions/0063): the optional lines are ticked by the customer; the
  // total for what is ticked is worked out here, on the server (the page has no script), and again on approval.
  const optionalLines = estimate.sheet.lines.filter((l) => l.optional);
  const known = new Set(optionalLines.map((l) => l.id));
  const chosen = (form.intent === "approve" ? (form.chosen ?? []) : []).filter((id) => known.has(id));
  const choice = approvalOf(estimate.sheet, "approved", chosen, estimate.totalCents);
  const required = approvalOf(estimate.sheet, "approved", [], estimate.totalCents);
  return (
    <Shell title={t("Estimate: {{title}}", { title: estimate.title })} language={page.language}>
      <Dealer dealer={dealer} logo={page.logo ? `${base}/logo` : null} />
      <p className="dim">{customer ? t("For {{name}}", { name: `${customer.firstName} ${customer.lastName}` }) : t("Your estimate")}</p>
      <h1>{estimate.title}</h1>
      <p className="dim">
        {estimate.vehicle ?? t("Vehicle not specified")}
        {estimate.vin ? ` · ${t("VIN")} ${estimate.vin}` : ""} ·{" "}
        <span data-testid="version-name">
          {estimate.version > 1
            ? t("Revised estimate {{label}} No. {{number}}", { label: estimate.versionLabel, number: estimate.estimateNumber })
            : t("Estimate No. {{number}}", { number: estimate.estimateNumber })}
        </span>{" "}
        · {dateText(estimate.createdAt)}
      </p>
      <p className="total" data-testid="headline-total">
        {formatDollars(estimate.estimatedCost)}
      </p>
      {estimate.changes ? <WhatChanged changes={estimate.changes} /> : null}

      {done === "question" ? (
        <p className="banner info" role="status">
          {t("Your question was sent to {{dealer}}. They will get back to you.", { dealer: dealerName })}
        </p>
      ) : null}
      {decision ? (
        <p className={`banner ${decision.decision === "approved" ? "ok" : "no"}`} role="status" data-testid="decision-banner">
          {decision.decision === "approved"
            ? t("Approved on {{time}} UTC, signed as {{name}}.", { time: timeText(decision.decidedAt ?? ""), name: decision.signatureName ?? "" })
            : t("Declined on {{time}} UTC.", { time: timeText(decision.decidedAt ?? "") })}
          {decision.decision === "declined" && decision.reason ? ` ${t("Reason: {{reason}}", { reason: decision.reason })}` : ""}
          {done === decision.decision ? ` ${t("Thank you: {{dealer}} has been told.", { dealer: dealerName })}` : ""}
          {decision.decision === "approved" && decision.approvedTotalCents !== null ? (
            <span data-testid="decision-approved-total"> {t("Approved total: {{total}}.", { total: formatCents(decision.approvedTotalCents) })}</span>
          ) : null}
          {decision.lines && decision.lines.some((l) => l.optional) ? (
            <ul className="per-line" data-testid="decision-lines">
              {decision.lines.map((l) => (
                <li key={l.id} data-testid="decision-line" data-decision={l.decision}>
                  {l.label}
                  {l.optional ? ` ${t("(optional)")}` : ""}: {l.decision === "approved" ? t("approved") : t("declined")}, {formatCents(l.amountCents)}
                </li>
              ))}
            </ul>
          ) : null}
        </p>
      ) : null}

      <PublicEstimateLines damages={estimate.damages} sheet={estimate.sheet} totalCents={estimate.totalCents} costNote={estimate.costNote} evidence={evidence} base={base} />

      <p>
        <a href={`${base}/pdf`} data-testid="pdf-link">
          {t("Download the estimate (PDF, No. {{number}})", { number: estimate.estimateNumber })}
        </a>
      </p>

      {photos.length > 0 ? (
        <>
          <h2>{t("Photos")}</h2>
          <div className="photos">
            {photos.map((photo, i) => (
              <figure key={i}>
                <img src={`${base}/photos/${i}`} alt={photo.alt} width={480} height={360} loading="lazy" decoding="async" />
                <figcaption className="dim">
                  {photo.label}
                  {photo.damages.length > 0
                    ? ` · ${photo.damages.length === 1 ? t("Damage {{n}}", { n: photo.damages[0] }) : t("Damages {{list}}", { list: photo.damages.join(", ") })}`
                    : ""}
                </figcaption>
              </figure>
            ))}
          </div>
        </>
      ) : null}

      {terms ? (
        <section aria-labelledby="terms-title">
          <h2 id="terms-title">{t("Terms")}</h2>
          <div className="terms" data-testid="public-terms" tabIndex={0}>
            {terms}
          </div>
        </section>
      ) : null}

      {decision ? null : (
        <>
          <h2>{t("Approve")}</h2>
          <form method="post" action={base} noValidate>
            <input type="hidden" name="intent" value="approve" />
            {optionalLines.length > 0 ? (
              <fieldset className="choices" data-testid="optional-choices" aria-describedby={err("approve", "optionalLines") ? "optionalLines-error" : undefined}>
                <legend>{t("Optional work (recommended, not required)")}</legend>
                <p className="dim">
                  {t("The required work is {{total}} with tax. Tick the optional lines you also want done.", { total: formatCents(required.approvedTotalCents) })}
                </p>
                {optionalLines.map((line) => (
                  <label key={line.id} className="choice" htmlFor={`optional-${line.id}`}>
                    <input type="checkbox" id={`optional-${line.id}`} name="optionalLines" value={line.id} defaultChecked={chosen.includes(line.id)} />
                    <span className="what">
                      {line.damage !== null ? `#${line.damage + 1} ` : ""}
                      {line.description || t(line.operation)} ·{" "}
                      {t("{{amount}} before tax", { amount: formatCents(lineTotalCents(line, estimate.sheet.materialsRateCents)) })}
                      <Evidence damage={line.damage} evidence={evidence} base={base} />
                    </span>
                  </label>
                ))}
                <FieldError id="optionalLines-error" message={err("approve", "optionalLines")} />
                <p className="approved-total" data-testid="approved-total">
                  {t("Total for what you approve: {{total}}", { total: formatCents(choice.approvedTotalCents) })}
                </p>
                <button type="submit" name="recalculate" value="1" className="secondary">
                  {t("Update the total")}
                </button>
              </fieldset>
            ) : null}
            <label htmlFor="signatureName">{t("Your full name (your signature)")}</label>
            <input
              type="text"
              id="signatureName"
              name="signatureName"
              autoComplete="name"
              defaultValue={form.intent === "approve" ? values.signatureName : ""}
              aria-invalid={err("approve", "signatureName") ? true : undefined}
              aria-describedby={err("approve", "signatureName") ? "signatureName-error" : undefined}
            />
            <FieldError id="signatureName-error" message={err("approve", "signatureName")} />
            <label className="check" htmlFor="termsAccepted">
              <input
                type="checkbox"
                id="termsAccepted"
                name="termsAccepted"
                aria-invalid={err("approve", "termsAccepted") ? true : undefined}
                aria-describedby={err("approve", "termsAccepted") ? "termsAccepted-error" : undefined}
              />
              <span>{acceptance(t, { lines: optionalLines.length > 0, terms, dealer: dealerName, required: formatCents(required.approvedTotalCents), total: formatDollars(estimate.estimatedCost) })}</span>
            </label>
            <FieldError id="termsAccepted-error" message={err("approve", "termsAccepted")} />
            <button type="submit">{t("Approve estimate")}</button>
          </form>

          <details open={form.intent === "decline" || undefined}>
            <summary>{t("Decline")}</summary>
            <form method="post" action={base} noValidate>
              <input type="hidden" name="intent" value="decline" />
              <label htmlFor="reason">{t("Reason (optional)")}</label>
              <textarea id="reason" name="reason" maxLength={1000} defaultValue={form.intent === "decline" ? values.reason : ""} />
              <FieldError id="reason-error" message={err("decline", "reason")} />
              <button type="submit" className="decline">
                {t("Decline estimate")}
              </button>
            </form>
          </details>
        </>
      )}

      {page.questions.length > 0 ? (
        <section aria-labelledby="questions-title" data-testid="your-questions">
          <h2 id="questions-title">{t("Your questions")}</h2>
          <ol className="thread">
            {page.questions.map((q) => (
              <li key={q.id} data-testid="your-question">
                <p className="dim">{t("You asked on {{time}} UTC:", { time: timeText(q.askedAt) })}</p>
                <p className="said">{q.message}</p>
                {q.answers.length === 0 ? (
                  <p className="dim" data-testid="no-answer-yet">
                    {t("No answer yet.")}
                  </p>
                ) : (
                  q.answers.map((a, i) => (
                    <div key={i} className="answer" data-testid="answer">
                      <p className="dim">{t("{{dealer}} answered on {{time}} UTC:", { dealer: dealer?.name ?? t("The dealer"), time: timeText(a.at) })}</p>
                      <p className="said">{a.message}</p>
                    </div>
                  ))
                )}
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      <details open={form.intent === "question" || undefined}>
        <summary>{t("Ask a question")}</summary>
        <form method="post" action={base} noValidate>
          <input type="hidden" name="intent" value="question" />
          <label htmlFor="message">{t("Your question")}</label>
          <textarea
            id="message"
            name="message"
            defaultValue={form.intent === "question" ? values.message : ""}
            aria-invalid={err("question", "message") ? true : undefined}
            aria-describedby={err("question", "message") ? "message-error" : undefined}
          />
          <FieldError id="message-error" message={err("question", "message")} />
          <label htmlFor="replyEmail">{t("Your email for the answer (optional)")}</label>
          <input type="email" id="replyEmail" name="replyEmail" autoComplete="email" defaultValue={form.intent === "question" ? values.replyEmail : ""} />
          <FieldError id="replyEmail-error" message={err("question", "replyEmail")} />
          <button type="submit" className="secondary">
            {t("Send question")}
          </button>
        </form>
      </details>

      <footer className="dim">{t("This link is for you alone and stays open until {{date}}.", { date: dateText(page.expiresAt) })}</footer>
    </Shell>
  );
}

/** Why a link shows no estimate: a title and a sentence naming whom to ask (`{{dealer}}`). */
const UNAVAILABLE: Record<string, { title: string; text: string }> = {
  "not-found": { title: "Link not found", text: "This estimate link is not valid. Please check that you opened the whole link from your email." },
  revoked: { title: "Link withdrawn", text: "This estimate link has been withdrawn by {{dealer}}. Please contact them for a current estimate." },
  expired: { title: "Link expired", text: "This estimate link has expired. Please contact {{dealer}} for a new link." },
  superseded: {
    title: "This estimate has been revised",
    text: "{{dealer}} has revised this estimate, so this version can no longer be approved or declined. Please use the link in the most recent email from {{dealer}}.",
  },
  gone: { title: "Estimate no longer available", text: "This estimate is no longer available. Please contact {{dealer}}." },
  "rate-limited": { title: "Too many requests", text: "Too many requests from your connection. Please wait a few minutes and try again." },
  decided: { title: "Already answered", text: "This estimate has already been answered; your earlier answer stands." },
};

/**
 * The page of a link that shows no estimate: why, and whom to ask; a revised one, the page of the
 * newer version sent to the customer. In the link's language when it is known, else the browser's.
 */
export function LinkUnavailableDocument({
  reason,
  dealer,
  retryAfter,
  newer,
  language,
}: {
  reason: string;
  dealer: DealerCard | null;
  retryAfter?: number;
  newer?: string | null;
  language: string;
}) {
  const t = useT();
  const entry = UNAVAILABLE[reason] ?? UNAVAILABLE["not-found"];
  const name = dealer?.name ?? t("the dealer who sent it");
  return (
    <Shell title={t(entry.title)} language={language}>
      <Dealer dealer={dealer} />
      <h1 data-testid="unavailable-title">{t(entry.title)}</h1>
      <p data-testid="unavailable-text">{t(entry.text, { dealer: name })}</p>
      {newer ? (
        <p>
          <a href={newer} data-testid="newer-version-link">
            {t("See the revised estimate")}
          </a>
        </p>
      ) : null}
      {retryAfter ? <p className="dim">{t("Try again in {{seconds}} seconds.", { seconds: retryAfter })}</p> : null}
    </Shell>
  );
}
