import { formatCents } from "~/utils/estimate-lines";
import type { PdfWords } from "./estimate-pdf-words";

// The customer's decision on the printed estimate (issue 40 item 6, docs/decisions/0063): what was
// approved line by line, the approved total and the evidence of the signature, after the totals.

export interface PrintedApproval {
  decision: "approved" | "declined";
  decidedAt: Date;
  signatureName: string | null;
  approvedTotalCents: number | null;
  /** Null: a decision recorded before lines were kept (the whole version). */
  lines: { label: string; optional: boolean; decision: "approved" | "declined"; amountCents: number }[] | null;
  ip: string;
  pdfSha256: string;
}

/** The layout's own helpers, so this block flows and breaks pages as the rest of the estimate does. */
interface Layout {
  w: PdfWords;
  dateFormat: { format: (d: Date) => string };
  ensure: (height: number) => void;
  heading: (text: string) => void;
  paragraph: (text: string) => void;
  style: (font: "regular" | "bold", size: number, color: string) => unknown;
  end: () => void;
}

const INK = "#111827";
const DIM = "#6b7280";

/** What the customer approved, line by line, with the approved total and the evidence of the signature. */
export function writeApproval(a: PrintedApproval, { w, dateFormat, ensure, heading, paragraph, style, end }: Layout) {
  const at = `${dateFormat.format(a.decidedAt)} ${a.decidedAt.toISOString().slice(11, 16)}`;
  const lead = [
    a.decision === "approved" ? w.approval.signed(a.signatureName ?? "", at) : w.approval.declinedAt(at),
    ...(a.decision === "approved" && a.approvedTotalCents !== null ? [`${w.approval.total}: ${formatCents(a.approvedTotalCents)}`] : []),
  ];
  const lines = (a.lines ?? []).map(
    (l) => `${l.label}${l.optional ? ` (${w.optional})` : ""}: ${l.decision === "approved" ? w.approval.approved : w.approval.declined}, ${formatCents(l.amountCents)}`,
  );
  ensure(40 + (lead.length + lines.length) * 12);
  heading(w.approval.title);
  for (const [font, texts] of [["bold", lead], ["regular", lines]] as const) {
    for (const text of texts) {
      style(font, 8.5, INK);
      ensure(14);
      paragraph(text);
    }
  }
  style("regular", 7, DIM);
  paragraph(w.approval.evidence(a.ip, a.pdfSha256));
  // paragraph() writes at the left margin: the block ends there.
  end();
}
