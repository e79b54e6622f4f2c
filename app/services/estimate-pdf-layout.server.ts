import { type EstimateLanguage, OPERATIONS, versionLabel } from "~/schemas/estimate-sheet";
import { renderTerms } from "./estimate-terms.server";
import { formatCents, humanizeType } from "~/utils/estimate-lines";
import { lineTotalCents, materialsCentsOf, type Sheet, type SheetLine, type SheetTotals } from "~/utils/estimate-sheet";
import { newEstimateDoc, PAGE } from "./estimate-pdf-document.server";
import { printableDocument } from "./estimate-pdf-fonts.server";
import { type Element, pen } from "./estimate-pdf-pen.server";
import { photosHeight, writePhotos, type PrintedPhoto } from "./estimate-pdf-photos.server";
import { writeApproval, type PrintedApproval } from "./estimate-pdf-approval.server";
import { PDF_WORDS } from "./estimate-pdf-words";
import { formattersFor } from "~/utils/locale-format";

/**
 * The printed estimate's layout: writing an EstimateDocument into a PDF is pure (the tests and the
 * bench write it too); estimate-pdf.server.ts gathers the document. It is a tagged PDF/A-2a with
 * Noto Sans embedded (decision 0026): headings, the lines as a table, photos as figures with their
 * alternative text; decorations, the header of continuation pages and page numbers as artifacts.
 */

/** Photos printed on an estimate. */
export const PDF_PHOTOS = 6;
const { MARGIN, HEADER_BOTTOM, FOOTER_TOP, TEXT_BOTTOM } = PAGE;
const INK = "#111827";
const DIM = "#6b7280";
const RULE = "#d1d5db";
const SHADE = "#f3f4f6";
const ACCENT = "#1e3a8a";

/** Everything the printed estimate shows, gathered first so that writing it is pure (tests and the bench write it too). */
export interface EstimateDocument {
  id: string;
  /** The estimate's number as every screen shows it (the original's, `-S01` on a supplement; docs/decisions/0053); absent: the id's last 8 characters. */
  number?: string;
  title: string;
  version: number;
  account: { name: string; lines: string[]; logo: Buffer | null };
  customer: { name: string; email: string | null } | null;
  vehicle: { description: string | null; vin: string | null; mileage: number | null };
  damages: { damageType: string; location: string; severity: string; mediaUrl: string | null }[];
  photos: PrintedPhoto[];
  sheet: Sheet;
  totals: SheetTotals;
  /** The total in cents, or null while a damage has no line (TBD). */
  totalCents: number | null;
  costNote: string | null;
  issuedAt: Date;
  validUntil: Date;
  terms: string;
  language: EstimateLanguage;
  /** The customer's decision on this version, line by line (docs/decisions/0063); absent: none yet. */
  approval?: PrintedApproval | null;
}


/**
 * The terms as the PDF prints them: the account's terms with their variables filled in, in the
 * estimate's language. The customer's page shows this same text (stored with its link).
 */
export function documentTerms(e: EstimateDocument) {
  const w = PDF_WORDS[e.language];
  const dateFormat = { format: formattersFor(e.language).date };
  return renderTerms(e.terms, {
    customer: e.customer?.name ?? w.noCustomer,
    account: e.account.name,
    title: e.title,
    total: e.totalCents === null ? w.totals.tbd : formatCents(e.totalCents),
    validUntil: dateFormat.format(e.validUntil),
  }).trim();
}

/** Writes the estimate onto `doc` (made by newEstimateDoc); the page numbers go on every page once all are laid out. */
export function writeEstimate(doc: PDFKit.PDFDocument, input: EstimateDocument) {
  const e = printableDocument(input);
  const w = PDF_WORDS[e.language];
  const width = doc.page.width - MARGIN * 2;
  const right = MARGIN + width;
  const dateFormat = { format: formattersFor(e.language).date };
  const label = e.version > 1 ? w.supplement(versionLabel(e.version)) : w.estimate;
  const p = pen(doc);
  const { root } = p;
  let inTable = false;
  // Noto Sans's lines are taller than Helvetica's were (its accents on capitals have room): a point
  // less between lines keeps the page as dense, with stacked Vietnamese accents clear of the line above.
  doc.lineGap(-1);

  /** The page header: tagged on the first page; on the others the whole of it is one artifact. */
  const header = (put: (type: string, draw: () => void) => void, decorate: (draw: () => void) => void) => {
    const top = 30;
    let x = MARGIN;
    const logo = e.account.logo;
    if (logo) {
      decorate(() => {
        try {
          doc.image(logo, MARGIN, top, { fit: [110, 48], valign: "center" });
          x = MARGIN + 122;
        } catch {
          // A logo pdfkit cannot read prints nothing rather than failing the estimate.
        }
      });
    }
    put("P", () => p.use("bold", 13, INK).text(e.account.name, x, top - 2, { width: 260, lineBreak: false, ellipsis: true }));
    e.account.lines.slice(0, 4).forEach((line, i) => put("P", () => p.use("regular", 8, DIM).text(line, x, top + 16 + i * 10, { width: 260, lineBreak: false, ellipsis: true })));
    put("H1", () => p.use("bold", 16, ACCENT).text(label.toUpperCase(), right - 220, top - 3, { width: 220, align: "right" }));
    const facts = [
      `${w.number} ${e.number ?? e.id.slice(-8).toUpperCase()}`,
      `${w.date}: ${dateFormat.format(e.issuedAt)}`,
      `${w.validUntil}: ${dateFormat.format(e.validUntil)}`,
    ];
    facts.forEach((fact, i) => put("P", () => p.use("regular", 8, INK).text(fact, right - 220, top + 20 + i * 10, { width: 220, align: "right" })));
    decorate(() => doc.moveTo(MARGIN, HEADER_BOTTOM - 12).lineTo(right, HEADER_BOTTOM - 12).lineWidth(1).strokeColor(ACCENT).stroke());
    doc.x = MARGIN;
    doc.y = HEADER_BOTTOM;
  };
  header(
    (type, draw) => p.tag(root, type, draw),
    (draw) => p.artifact(draw),
  );
  // Every later page starts with the header, whatever starts it (a new section, or text flowing
  // past the bottom); the writing then goes on where and as it was.
  doc.on("pageAdded", () => {
    const { x, y } = doc;
    p.artifact(() => header((_, draw) => draw(), (draw) => draw()), "Pagination");
    p.restore();
    doc.x = x;
    doc.y = y;
  });

  // Table columns: damage number, description, labour, part, quantity, amount.
  const cols = { dmg: MARGIN, desc: MARGIN + 30, labour: MARGIN + 215, part: MARGIN + 325, qty: MARGIN + 440, amount: MARGIN + 465 };
  const colWidth = { dmg: 28, desc: 180, labour: 106, part: 112, qty: 24, amount: right - cols.amount };
  const heads: [string, number, number, "left" | "right"][] = [
    [w.columns.damage, cols.dmg + 2, colWidth.dmg, "left"],
    [w.columns.description, cols.desc, colWidth.desc, "left"],
    [w.columns.labour, cols.labour, colWidth.labour, "left"],
    [w.columns.part, cols.part, colWidth.part, "left"],
    [w.columns.qty, cols.qty, colWidth.qty, "right"],
    [w.columns.amount, cols.amount, colWidth.amount - 2, "right"],
  ];
  /** The column heads: the table's header row on its first page, an artifact where it is repeated. */
  const tableHeader = (table: Element | null) => {
    const y = doc.y;
    const head = ([text, x, cellWidth, align]: (typeof heads)[number]) => p.use("bold", 7.5, "#ffffff").text(text, x, y, { width: cellWidth, align });
    const band = () => doc.rect(MARGIN, y - 2, width, 14).fill(ACCENT);
    if (table) {
      p.artifact(band);
      p.group(table, "TR", (tr) => heads.forEach((h) => p.tag(tr, "TH", () => head(h), { scope: "Column" })));
    } else {
      p.artifact(() => {
        band();
        heads.forEach(head);
      }, "Pagination");
    }
    doc.x = MARGIN;
    doc.y = y + 16;
  };
  const ensure = (height: number) => {
    if (doc.y + height <= TEXT_BOTTOM) return;
    doc.addPage();
    if (inTable) tableHeader(null);
  };
  const heading = (text: string, x = MARGIN, headingWidth = width) => {
    p.tag(root, "H2", () => p.use("bold", 10, ACCENT).text(text.toUpperCase(), x, doc.y, { width: headingWidth }));
    doc.y += 3;
  };
  const paragraph = (text: string, x = MARGIN, paragraphWidth = width) => p.tag(root, "P", () => doc.text(text, x, doc.y, { width: paragraphWidth }));

  // Customer and vehicle, side by side.
  const top = doc.y;
  const half = width / 2 - 10;
  heading(w.customer, MARGIN, half);
  p.use("regular", 9, INK);
  if (e.customer) {
    paragraph(e.customer.name, MARGIN, half);
    if (e.customer.email) paragraph(e.customer.email, MARGIN, half);
  } else {
    paragraph(w.noCustomer, MARGIN, half);
  }
  const leftBottom = doc.y;
  const vx = MARGIN + width / 2 + 10;
  doc.y = top;
  heading(w.vehicle, vx, half);
  p.use("regular", 9, INK);
  paragraph(e.vehicle.description ?? w.notGiven, vx, half);
  paragraph(`${w.vin}: ${e.vehicle.vin ?? w.notGiven}`, vx, half);
  if (e.vehicle.mileage !== null) paragraph(`${w.mileage}: ${e.vehicle.mileage.toLocaleString(w.locale).replace(/\u202f/g, " ")}`, vx, half);
  doc.x = MARGIN;
  doc.y = Math.max(leftBottom, doc.y) + 10;

  // Photos, each marked with the numbers of the damages found on it.
  if (e.photos.length > 0) {
    const room = photosHeight(doc, p, e.photos, width, w.damages);
    ensure(40 + room);
    heading(w.photos);
    writePhotos(doc, p, root, e.photos, { left: MARGIN, width, alt: w.photo, frameAlt: w.frame, legend: w.damages });
  }

  // The damages, numbered as on the photos and the lines.
  ensure(40);
  heading(w.damages);
  if (e.damages.length === 0) {
    p.use("regular", 9, DIM);
    paragraph(w.noDamages);
  } else {
    p.group(root, "L", (list) =>
      e.damages.forEach((d, i) => {
        ensure(13);
        p.group(list, "LI", (item) =>
          p.tag(item, "LBody", () =>
            p.use("regular", 9, INK).text(`#${i + 1}  ${humanizeType(d.damageType)} - ${w.locations[d.location] ?? d.location}, ${w.severities[d.severity] ?? d.severity}`, MARGIN, doc.y, { width }),
          ),
        );
      }),
    );
  }
  doc.moveDown(0.6);

  // The lines, grouped by operation, the header repeated on every page the table runs onto.
  ensure(60);
  heading(w.lines);
  const { sheet } = e;
  if (sheet.lines.length === 0) {
    p.use("regular", 9, DIM);
    paragraph(w.noLines);
  } else {
    p.group(root, "Table", (table) => {
      tableHeader(table);
      inTable = true;
      for (const op of OPERATIONS) {
        const lines = sheet.lines.filter((l) => l.operation === op);
        if (lines.length === 0) continue;
        ensure(30);
        const gy = doc.y;
        p.artifact(() => doc.rect(MARGIN, gy - 1, width, 12).fill(SHADE));
        p.group(table, "TR", (tr) =>
          p.tag(tr, "TH", () => p.use("bold", 8, INK).text(w.operations[op], cols.desc, gy - 1, { width: colWidth.desc }), { scope: "Row", colSpan: heads.length }),
        );
        doc.y = gy + 13;
        for (const line of lines) writeLine(table, line);
      }
      inTable = false;
    });
  }

  function writeLine(table: Element, line: SheetLine) {
    const description = [(line.optional ? `(${w.optional}) ` : "") + (line.description || w.operations[line.operation]), line.note].filter(Boolean).join(" - ");
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
    ].filter(Boolean).join("\n");
    const cells: [string, number, number, "left" | "right"][] = [
      [line.damage === null ? "-" : `#${line.damage + 1}`, cols.dmg + 2, colWidth.dmg, "left"],
      [description, cols.desc, colWidth.desc, "left"],
      [labourText, cols.labour, colWidth.labour, "left"],
      [partText, cols.part, colWidth.part, "left"],
      [line.part ? String(line.part.quantity) : "", cols.qty, colWidth.qty, "right"],
      [formatCents(lineTotalCents(line, sheet.materialsRateCents)), cols.amount, colWidth.amount - 2, "right"],
    ];
    p.use("regular", 8, INK);
    const height = Math.max(...cells.map(([text, , cellWidth]) => doc.heightOfString(text || " ", { width: cellWidth }))) + 3;
    // The row's own font is set after a page break may have drawn the column heads in bold.
    ensure(height);
    const y = doc.y;
    p.group(table, "TR", (tr) =>
      cells.forEach(([text, x, cellWidth, align]) => {
        if (text) p.tag(tr, "TD", () => p.use("regular", 8, INK).text(text, x, y, { width: cellWidth, align }));
        else p.empty(tr, "TD");
      }),
    );
    p.artifact(() => doc.moveTo(MARGIN, y + height - 1.5).lineTo(right, y + height - 1.5).lineWidth(0.5).strokeColor(RULE).stroke());
    doc.x = MARGIN;
    doc.y = y + height;
  }

  writeTotals();
  function writeTotals() {
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
    const payers: [string, number][] =
      t.deductibleCents !== null && e.totalCents !== null
        ? [
            [w.totals.deductible, t.deductibleCents],
            [w.totals.customerPays, t.customerPaysCents],
            [w.totals.insurerPays, t.insurerPaysCents],
          ]
        : [];
    ensure((rows.length + payers.length) * 13 + 60);
    doc.moveDown(0.6);
    const bx = right - 250;
    const row = (table: Element, name: string, value: string, font: "regular" | "bold", size: number, color: string) => {
      const y = doc.y;
      p.group(table, "TR", (tr) => {
        p.tag(tr, "TH", () => p.use(font, size, color).text(name, bx, y, { width: 160 }), { scope: "Row" });
        p.tag(tr, "TD", () => p.use(font, size, color).text(value, bx + 160, y, { width: 88, align: "right" }));
      });
    };
    p.group(root, "Table", (table) => {
      for (const [name, value, strong] of rows) {
        const y = doc.y;
        row(table, name, value, strong ? "bold" : "regular", 8.5, INK);
        doc.y = y + 12;
      }
      const ty = doc.y + 2;
      p.artifact(() => doc.rect(bx - 4, ty - 3, 254, 18).fill(ACCENT));
      doc.y = ty - 1;
      row(table, w.totals.total, e.totalCents === null ? w.totals.tbd : formatCents(e.totalCents), "bold", 11, "#ffffff");
      doc.y = ty + 20;
      for (const [name, cents] of payers) {
        const y = doc.y;
        row(table, name, formatCents(cents), "regular", 8.5, INK);
        doc.y = y + 12;
      }
    });
    if (e.totalCents === null && e.costNote) {
      p.use("regular", 7.5, DIM);
      paragraph(e.costNote, bx, 250);
    }
    doc.x = MARGIN;
    doc.moveDown(1);
  }
  if (e.approval) writeApproval(e.approval, { w, dateFormat, ensure, heading, paragraph, style: (font, size, color) => p.use(font, size, color), end: () => doc.moveDown(0.8) });

  // Terms, paragraph by paragraph, then the signature block: kept together on one page, with the
  // last paragraph of the terms (a signature alone on a page signs nothing in sight).
  const SIGNATURE = 76;
  const terms = documentTerms(e);
  if (terms) {
    p.use("regular", 8, INK);
    const paragraphs = terms.split(/\n\s*\n/);
    const room = (i: number) => Math.min(doc.heightOfString(paragraphs[i], { width }), 200) + 4 + (i === paragraphs.length - 1 ? SIGNATURE : 0);
    ensure(20 + room(0));
    heading(w.terms);
    paragraphs.forEach((text, i) => {
      p.use("regular", 8, INK);
      ensure(room(i));
      paragraph(text);
      doc.moveDown(0.6);
    });
    doc.moveDown(0.2);
  }
  ensure(SIGNATURE);
  p.use("regular", 8.5, INK);
  paragraph(w.signature.accept);
  const sy = doc.y + 36;
  const sign = (x: number, len: number, text: string) => {
    p.artifact(() => doc.moveTo(x, sy).lineTo(x + len, sy).lineWidth(0.8).strokeColor(INK).stroke());
    p.tag(root, "P", () => p.use("regular", 7.5, DIM).text(text, x, sy + 3, { width: len }));
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
    p.artifact(() => {
      p.use("regular", 7.5, DIM).text(`${label} ${e.id}`, MARGIN, FOOTER_TOP + 14, { width: width / 2, lineBreak: false });
      doc.text(w.page(i - range.start + 1, range.count), MARGIN + width / 2, FOOTER_TOP + 14, { width: width / 2, align: "right", lineBreak: false });
    }, "Pagination");
    doc.page.margins.bottom = bottom;
  }
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
