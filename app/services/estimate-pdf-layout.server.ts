import Handlebars from "handlebars";
import PDFDocument from "pdfkit";
import { type EstimateLanguage, OPERATIONS, versionLabel } from "~/schemas/estimate-sheet";
import { formatCents, humanizeType } from "~/utils/estimate-lines";
import { lineTotalCents, materialsCentsOf, type Sheet, type SheetLine, type SheetTotals } from "~/utils/estimate-sheet";
import { PDF_WORDS } from "./estimate-pdf-words";

/**
 * The printed estimate's layout: writing an EstimateDocument into a PDF is pure (the tests and the
 * bench write it too); estimate-pdf.server.ts gathers the document.
 */

/** Photos printed on an estimate. */
export const PDF_PHOTOS = 6;
const MARGIN = 40;
const HEADER_BOTTOM = 104;
const FOOTER_TOP = 752;
const INK = "#111827";
const DIM = "#6b7280";
const RULE = "#d1d5db";
const SHADE = "#f3f4f6";
const ACCENT = "#1e3a8a";

/** Everything the printed estimate shows, gathered first so that writing it is pure (tests and the bench write it too). */
export interface EstimateDocument {
  id: string;
  title: string;
  version: number;
  account: { name: string; lines: string[]; logo: Buffer | null };
  customer: { name: string; email: string | null } | null;
  vehicle: { description: string | null; vin: string | null; mileage: number | null };
  damages: { damageType: string; location: string; severity: string; mediaUrl: string | null }[];
  photos: { bytes: Buffer; damages: number[] }[];
  sheet: Sheet;
  totals: SheetTotals;
  /** The total in cents, or null while a damage has no line (TBD). */
  totalCents: number | null;
  costNote: string | null;
  issuedAt: Date;
  validUntil: Date;
  terms: string;
  language: EstimateLanguage;
}

/**
 * The terms with their Handlebars variables filled in (customer, account, estimate). Printed as
 * text, never as HTML; a template that does not compile prints as written.
 */
export function renderTerms(template: string, data: { customer: string; account: string; title: string; total: string; validUntil: string }) {
  if (!template.trim()) return "";
  try {
    return Handlebars.compile(template, { noEscape: true, strict: false, knownHelpersOnly: true })({
      customer: { name: data.customer },
      account: { name: data.account },
      estimate: { title: data.title, total: data.total, validUntil: data.validUntil },
    });
  } catch {
    return template;
  }
}

/** Writes the estimate onto `doc`; the header and the page numbers go on every page once all are laid out. */
export function writeEstimate(doc: PDFKit.PDFDocument, e: EstimateDocument) {
  const w = PDF_WORDS[e.language];
  const width = doc.page.width - MARGIN * 2;
  const right = MARGIN + width;
  const dateFormat = new Intl.DateTimeFormat(w.locale, { dateStyle: "medium", timeZone: "UTC" });
  const label = e.version > 1 ? w.supplement(versionLabel(e.version)) : w.estimate;
  let inTable = false;

  const header = () => {
    const top = 30;
    let x = MARGIN;
    if (e.account.logo) {
      try {
        doc.image(e.account.logo, MARGIN, top, { fit: [110, 48], valign: "center" });
        x = MARGIN + 122;
      } catch {
        // A logo pdfkit cannot read prints nothing rather than failing the estimate.
      }
    }
    doc.font("Helvetica-Bold").fontSize(13).fillColor(INK).text(e.account.name, x, top, { width: 260, lineBreak: false, ellipsis: true });
    doc.font("Helvetica").fontSize(8).fillColor(DIM);
    e.account.lines.slice(0, 4).forEach((line, i) => doc.text(line, x, top + 17 + i * 10, { width: 260, lineBreak: false, ellipsis: true }));
    doc.font("Helvetica-Bold").fontSize(16).fillColor(ACCENT).text(label.toUpperCase(), right - 220, top, { width: 220, align: "right" });
    doc.font("Helvetica").fontSize(8).fillColor(INK);
    const facts = [
      `${w.number} ${e.id.slice(-8).toUpperCase()}`,
      `${w.date}: ${dateFormat.format(e.issuedAt)}`,
      `${w.validUntil}: ${dateFormat.format(e.validUntil)}`,
    ];
    facts.forEach((fact, i) => doc.text(fact, right - 220, top + 22 + i * 10, { width: 220, align: "right" }));
    doc.moveTo(MARGIN, HEADER_BOTTOM - 12).lineTo(right, HEADER_BOTTOM - 12).lineWidth(1).strokeColor(ACCENT).stroke();
    doc.x = MARGIN;
    doc.y = HEADER_BOTTOM;
  };

  // Table columns: damage number, description, labour, part, quantity, amount.
  const cols = { dmg: MARGIN, desc: MARGIN + 30, labour: MARGIN + 215, part: MARGIN + 325, qty: MARGIN + 440, amount: MARGIN + 465 };
  const colWidth = { dmg: 28, desc: 180, labour: 106, part: 112, qty: 24, amount: right - cols.amount };
  const tableHeader = () => {
    const y = doc.y;
    doc.rect(MARGIN, y - 2, width, 14).fill(ACCENT);
    doc.font("Helvetica-Bold").fontSize(7.5).fillColor("#ffffff");
    doc.text(w.columns.damage, cols.dmg + 2, y + 1, { width: colWidth.dmg });
    doc.text(w.columns.description, cols.desc, y + 1, { width: colWidth.desc });
    doc.text(w.columns.labour, cols.labour, y + 1, { width: colWidth.labour });
    doc.text(w.columns.part, cols.part, y + 1, { width: colWidth.part });
    doc.text(w.columns.qty, cols.qty, y + 1, { width: colWidth.qty, align: "right" });
    doc.text(w.columns.amount, cols.amount, y + 1, { width: colWidth.amount - 2, align: "right" });
    doc.x = MARGIN;
    doc.y = y + 16;
  };
  const newPage = () => {
    doc.addPage();
    header();
    if (inTable) tableHeader();
  };
  const ensure = (height: number) => {
    if (doc.y + height > FOOTER_TOP - 8) newPage();
  };
  const heading = (text: string) => {
    ensure(40);
    doc.font("Helvetica-Bold").fontSize(10).fillColor(ACCENT).text(text.toUpperCase(), MARGIN, doc.y, { width });
    doc.moveDown(0.2);
    doc.font("Helvetica").fontSize(9).fillColor(INK);
  };

  header();

  // Customer and vehicle, side by side.
  const top = doc.y;
  const half = width / 2 - 10;
  doc.font("Helvetica-Bold").fontSize(10).fillColor(ACCENT).text(w.customer.toUpperCase(), MARGIN, top, { width: half });
  doc.font("Helvetica").fontSize(9).fillColor(INK);
  if (e.customer) {
    doc.text(e.customer.name, { width: half });
    if (e.customer.email) doc.text(e.customer.email, { width: half });
  } else {
    doc.text(w.noCustomer, { width: half });
  }
  const leftBottom = doc.y;
  const vx = MARGIN + width / 2 + 10;
  doc.font("Helvetica-Bold").fontSize(10).fillColor(ACCENT).text(w.vehicle.toUpperCase(), vx, top, { width: half });
  doc.font("Helvetica").fontSize(9).fillColor(INK);
  doc.text(e.vehicle.description ?? w.notGiven, vx, doc.y, { width: half });
  doc.text(`${w.vin}: ${e.vehicle.vin ?? w.notGiven}`, vx, doc.y, { width: half });
  if (e.vehicle.mileage !== null) doc.text(`${w.mileage}: ${e.vehicle.mileage.toLocaleString(w.locale).replace(/\u202f/g, " ")}`, vx, doc.y, { width: half });
  doc.x = MARGIN;
  doc.y = Math.max(leftBottom, doc.y) + 10;

  // Photos, each marked with the numbers of the damages found on it.
  if (e.photos.length > 0) {
    heading(w.photos);
    const pw = (width - 20) / 3;
    const ph = pw * 0.66;
    ensure(Math.ceil(e.photos.length / 3) * (ph + 8));
    const py = doc.y;
    e.photos.forEach((photo, i) => {
      const x = MARGIN + (i % 3) * (pw + 10);
      const y = py + Math.floor(i / 3) * (ph + 8);
      doc.rect(x, y, pw, ph).fill(SHADE);
      try {
        doc.image(photo.bytes, x, y, { fit: [pw, ph], align: "center", valign: "center" });
      } catch {
        // An unreadable photo leaves its frame empty.
      }
      photo.damages.forEach((n, k) => {
        const cx = x + 10 + k * 18;
        doc.circle(cx, y + 10, 7).fill(ACCENT);
        doc.font("Helvetica-Bold").fontSize(7.5).fillColor("#ffffff").text(String(n + 1), cx - 7, y + 7, { width: 14, align: "center" });
      });
    });
    doc.x = MARGIN;
    doc.y = py + Math.ceil(e.photos.length / 3) * (ph + 8) + 4;
  }

  // The damages, numbered as on the photos and the lines.
  heading(w.damages);
  if (e.damages.length === 0) doc.fillColor(DIM).text(w.noDamages).fillColor(INK);
  e.damages.forEach((d, i) => {
    ensure(12);
    doc.text(`#${i + 1}  ${humanizeType(d.damageType)} - ${w.locations[d.location] ?? d.location}, ${w.severities[d.severity] ?? d.severity}`, MARGIN, doc.y, { width });
  });
  doc.moveDown(0.6);

  // The lines, grouped by operation, the header repeated on every page the table runs onto.
  heading(w.lines);
  const { sheet } = e;
  if (sheet.lines.length === 0) {
    doc.fillColor(DIM).text(w.noLines).fillColor(INK);
  } else {
    inTable = true;
    tableHeader();
    for (const op of OPERATIONS) {
      const lines = sheet.lines.filter((l) => l.operation === op);
      if (lines.length === 0) continue;
      ensure(30);
      const gy = doc.y;
      doc.rect(MARGIN, gy - 1, width, 12).fill(SHADE);
      doc.font("Helvetica-Bold").fontSize(8).fillColor(INK).text(w.operations[op], cols.desc, gy + 1, { width: colWidth.desc });
      doc.y = gy + 13;
      for (const line of lines) writeLine(line);
    }
    inTable = false;
  }

  function writeLine(line: SheetLine) {
    doc.font("Helvetica").fontSize(8);
    const description = [line.description || w.operations[line.operation], line.note].filter(Boolean).join(" - ");
    const labourText = line.labour
      ? `${line.labour.hours} h ${w.categories[line.labour.category]} @ ${formatCents(line.labour.rateCents)}` +
        (line.labour.amountCents === undefined ? "" : ` = ${formatCents(line.labour.amountCents)}`) +
        (materialsCentsOf(line, sheet.materialsRateCents) ? `\n+ ${w.materials} ${formatCents(materialsCentsOf(line, sheet.materialsRateCents))}` : "")
      : "";
    // The part and the operation's flat amount (an engine line has both): each named.
    const partText = [
      line.part
        ? [w.partTypes[line.part.type], line.part.number, line.part.description].filter(Boolean).join(" ") +
          `\n@ ${formatCents(line.part.unitPriceCents)}${line.part.amountCents === undefined ? "" : ` = ${formatCents(line.part.amountCents)}`}`
        : "",
      line.amountCents ? `${line.operation === "sublet" ? w.sublet : w.other} ${formatCents(line.amountCents)}` : "",
    ]
      .filter(Boolean)
      .join("\n");
    const height =
      Math.max(
        doc.heightOfString(description, { width: colWidth.desc }),
        doc.heightOfString(labourText || " ", { width: colWidth.labour }),
        doc.heightOfString(partText || " ", { width: colWidth.part }),
      ) + 4;
    ensure(height);
    const y = doc.y;
    doc.fillColor(INK);
    doc.text(line.damage === null ? "-" : `#${line.damage + 1}`, cols.dmg + 2, y, { width: colWidth.dmg });
    doc.text(description, cols.desc, y, { width: colWidth.desc });
    if (labourText) doc.text(labourText, cols.labour, y, { width: colWidth.labour });
    if (partText) doc.text(partText, cols.part, y, { width: colWidth.part });
    if (line.part) doc.text(String(line.part.quantity), cols.qty, y, { width: colWidth.qty, align: "right" });
    doc.text(formatCents(lineTotalCents(line, sheet.materialsRateCents)), cols.amount, y, { width: colWidth.amount - 2, align: "right" });
    doc.moveTo(MARGIN, y + height - 2).lineTo(right, y + height - 2).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.x = MARGIN;
    doc.y = y + height;
  }

  // The totals block, right-aligned.
  const t = e.totals;
  const rows: [string, string, boolean?][] = [[w.totals.parts, formatCents(t.partsCents)]];
  for (const [category, cents] of Object.entries(t.labourCents)) {
    if (cents !== 0) rows.push([w.totals.labour(w.categories[category as keyof typeof t.labourCents]), formatCents(cents)]);
  }
  if (t.materialsCents) rows.push([w.totals.materials, formatCents(t.materialsCents)]);
  if (t.subletCents) rows.push([w.totals.sublet, formatCents(t.subletCents)]);
  if (t.otherCents) rows.push([w.totals.other, formatCents(t.otherCents)]);
  rows.push([w.totals.subtotal, formatCents(t.subtotalCents), true]);
  if (t.taxCents.parts) rows.push([w.totals.tax(w.totals.parts.toLowerCase(), sheet.taxRates.parts), formatCents(t.taxCents.parts)]);
  if (t.taxCents.labour) rows.push([w.totals.tax(w.columns.labour.toLowerCase(), sheet.taxRates.labour), formatCents(t.taxCents.labour)]);
  if (t.taxCents.materials) rows.push([w.totals.tax(w.materials, sheet.taxRates.materials), formatCents(t.taxCents.materials)]);
  const totalText = e.totalCents === null ? w.totals.tbd : formatCents(e.totalCents);
  ensure(rows.length * 13 + 60);
  doc.moveDown(0.6);
  const bx = right - 250;
  for (const [name, value, strong] of rows) {
    const y = doc.y;
    doc.font(strong ? "Helvetica-Bold" : "Helvetica").fontSize(8.5).fillColor(INK);
    doc.text(name, bx, y, { width: 160 });
    doc.text(value, bx + 160, y, { width: 90, align: "right" });
    doc.y = y + 12;
  }
  const ty = doc.y + 2;
  doc.rect(bx - 4, ty - 3, 254, 18).fill(ACCENT);
  doc.font("Helvetica-Bold").fontSize(11).fillColor("#ffffff").text(w.totals.total, bx, ty, { width: 160 });
  doc.text(totalText, bx + 160, ty, { width: 88, align: "right" });
  doc.y = ty + 20;
  if (e.totalCents === null && e.costNote) doc.font("Helvetica").fontSize(7.5).fillColor(DIM).text(e.costNote, bx, doc.y, { width: 250 });
  if (t.deductibleCents !== null && e.totalCents !== null) {
    for (const [name, cents] of [
      [w.totals.deductible, t.deductibleCents],
      [w.totals.customerPays, t.customerPaysCents],
      [w.totals.insurerPays, t.insurerPaysCents],
    ] as const) {
      const y = doc.y;
      doc.font("Helvetica").fontSize(8.5).fillColor(INK).text(name, bx, y, { width: 160 });
      doc.text(formatCents(cents), bx + 160, y, { width: 90, align: "right" });
      doc.y = y + 12;
    }
  }
  doc.x = MARGIN;
  doc.moveDown(1);

  // Terms, then the signature block (kept together on one page).
  const terms = renderTerms(e.terms, {
    customer: e.customer?.name ?? w.noCustomer,
    account: e.account.name,
    title: e.title,
    total: totalText,
    validUntil: dateFormat.format(e.validUntil),
  });
  if (terms) {
    heading(w.terms);
    doc.font("Helvetica").fontSize(8).fillColor(INK);
    ensure(Math.min(doc.heightOfString(terms, { width }), 200) + 4);
    doc.text(terms, MARGIN, doc.y, { width });
    doc.moveDown(0.8);
  }
  ensure(90);
  doc.font("Helvetica").fontSize(8.5).fillColor(INK).text(w.signature.accept, MARGIN, doc.y, { width });
  const sy = doc.y + 40;
  const sign = (x: number, len: number, text: string) => {
    doc.moveTo(x, sy).lineTo(x + len, sy).lineWidth(0.8).strokeColor(INK).stroke();
    doc.font("Helvetica").fontSize(7.5).fillColor(DIM).text(text, x, sy + 3, { width: len });
  };
  sign(MARGIN, 220, w.signature.customer);
  sign(MARGIN + 235, 90, w.signature.date);
  sign(MARGIN + 340, width - 340, w.signature.shop);
  doc.x = MARGIN;
  doc.y = sy + 16;

  // Page numbers and the estimate's id on every page, now that the count is known.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Helvetica").fontSize(7.5).fillColor(DIM);
    doc.text(`${label} ${e.id}`, MARGIN, FOOTER_TOP + 14, { width: width / 2, lineBreak: false });
    doc.text(w.page(i - range.start + 1, range.count), MARGIN + width / 2, FOOTER_TOP + 14, { width: width / 2, align: "right", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/** A new pdfkit document for an estimate: pages kept until the end (their numbers need the count), fixed metadata. */
export function newEstimateDoc(e: EstimateDocument) {
  return new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `${PDF_WORDS[e.language].estimate}: ${e.title}`, Author: e.account.name, Subject: `Estimate ${e.id}`, CreationDate: e.issuedAt },
  });
}

/** The estimate's PDF as bytes (tests, the bench). */
export async function renderEstimatePdf(e: EstimateDocument): Promise<Buffer> {
  const doc = newEstimateDoc(e);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on("end", () => resolve());
    doc.on("error", reject);
  });
  writeEstimate(doc, e);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
