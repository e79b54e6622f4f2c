import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PDFParse } from "pdf-parse";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { renderEstimatePdf } from "./estimate-pdf-layout.server";
import { renderTerms } from "./estimate-terms.server";
import { longEstimate } from "./estimate-pdf.fixture";
import { readPdf } from "./estimate-pdf.reader";

// The PDF a shop signs, looked at as a customer would: a 60-line estimate laid out, its text read
// back, and a 1-, 3- and 8-page estimate rendered to PNG (pdf.js through pdf-parse) and compared
// with reference images a person reviewed (app/services/__fixtures__/estimate-pdf-*.png). After an
// intended change of the layout: UPDATE_PDF_REFERENCE=1, look at the new images, commit them.

const FIXTURES = path.join(import.meta.dirname, "__fixtures__");
/** The hail estimate of the bench: 100 lines, 60 dents on one photo, 8 pages. */
const hailEstimate = () => longEstimate({ lines: 100, damages: 60, hail: true });

async function pages(pdf: Buffer, shots: number[] = []) {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const text = await parser.getText();
    const images = shots.length ? (await parser.getScreenshot({ scale: 1, imageBuffer: true, imageDataUrl: false, partial: shots })).pages.map((p) => Buffer.from(p.data)) : [];
    return { texts: text.pages.map((p) => p.text), images };
  } finally {
    await parser.destroy();
  }
}

/** The share of pixels that differ visibly (any channel by more than 48 of 255) between two PNGs of one size. */
async function difference(a: Buffer, b: Buffer) {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  if (x.info.width !== y.info.width || x.info.height !== y.info.height) return 1;
  let differing = 0;
  for (let i = 0; i < x.data.length; i += 3) {
    if (Math.abs(x.data[i] - y.data[i]) > 48 || Math.abs(x.data[i + 1] - y.data[i + 1]) > 48 || Math.abs(x.data[i + 2] - y.data[i + 2]) > 48) differing += 1;
  }
  return differing / (x.info.width * x.info.height);
}

// Rendering and reading back 8-page documents takes seconds on a busy machine.
const SLOW = 90_000;

describe("the estimate PDF", () => {
  it("a 60-line estimate: every page has the header, the table's column heads and its number; lines grouped by operation; totals, terms, signature", async () => {
    const e = await longEstimate();
    const { texts } = await pages(await renderEstimatePdf(e));
    expect(texts.length).toBeGreaterThanOrEqual(3);
    texts.forEach((text, i) => {
      expect(text).toContain("Northside Collision Center");
      expect(text).toContain("SUPPLEMENT S01");
      expect(text).toContain(`Page ${i + 1} of ${texts.length}`);
      expect(text).toMatch(/Description\s+Labour\s+Part\s+Qty\s+Amount/);
    });
    const all = texts.join("\n");
    expect(all).toContain("VIN: 4T1B11HK5KU123456");
    expect(all).toContain("Mileage: 48,210");
    expect(all).toContain("Valid until: Dec 20, 2026");
    // Every line once, in its operation's group (repair lines before replace lines, sublets last).
    for (const line of e.sheet.lines) expect(all).toContain(line.description);
    const order = ["Repair", "Replace", "Refinish", "Blend", "Remove & install", "Sublet"].map((g) => all.indexOf(`\n${g}\n`));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]))).toBe(true);
    expect(all).toContain("Total (USD)");
    expect(all).toContain(`$${(e.totals.totalCents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);
    expect(all).toContain("Tax on parts (8.25%)");
    expect(all).toContain("Insurer pays");
    expect(all).toContain("This estimate for Ana García is valid until Dec 20, 2026.");
    expect(all).toContain("Customer signature");
  }, SLOW);

  it("prints in the customer's language (ES, FR)", async () => {
    const es = (await pages(await renderEstimatePdf(await longEstimate({ lines: 8, language: "es" })))).texts.join("\n");
    expect(es).toContain("SUPLEMENTO S01");
    expect(es).toContain("Válido hasta");
    expect(es).toContain("Reemplazar");
    expect(es).toContain("Firma del cliente");
    expect(es).toMatch(/Página 1 de \d/);
    const fr = (await pages(await renderEstimatePdf(await longEstimate({ lines: 8, language: "fr" })))).texts.join("\n");
    expect(fr).toContain("SUPPLÉMENT S01");
    expect(fr).toContain("Main-d'œuvre");
    expect(fr).toContain("Signature du client");
  }, SLOW);

  it("looks as reviewed: a 1-, 3- and 8-page estimate match their reference images, page by page", async () => {
    for (const [name, estimate, pageCount, shots] of [
      ["1-page", () => longEstimate({ lines: 2 }), 1, [1]],
      ["3-page", () => longEstimate({ lines: 60 }), 3, [1, 2, 3]],
      ["8-page", hailEstimate, 8, [1, 4, 8]],
    ] as const) {
      const { texts, images } = await pages(await renderEstimatePdf(await estimate()), [...shots]);
      expect(texts.length, `${name} estimate's pages`).toBe(pageCount);
      for (const [k, image] of images.entries()) {
        const reference = path.join(FIXTURES, `estimate-pdf-${name}-p${shots[k]}.png`);
        if (process.env.UPDATE_PDF_REFERENCE === "1" || !existsSync(reference)) {
          mkdirSync(FIXTURES, { recursive: true });
          writeFileSync(reference, image);
          continue;
        }
        expect(await difference(image, readFileSync(reference)), `page ${shots[k]} differs from ${reference}`).toBeLessThan(0.005);
      }
    }
    // The comparison sees a change a customer would: the same estimate in French is not the reference.
    const french = (await pages(await renderEstimatePdf(await longEstimate({ lines: 60, language: "fr" })), [1])).images[0];
    expect(await difference(french, readFileSync(path.join(FIXTURES, "estimate-pdf-3-page-p1.png")))).toBeGreaterThan(0.005);
  }, SLOW);

  it("continuation pages repeat the header and the column heads, and the row under them keeps the regular font", async () => {
    const { pages: all } = await readPdf(await renderEstimatePdf(await hailEstimate()));
    expect(all).toHaveLength(8);
    const continued = all.slice(1).filter((page) => page.items.some((item) => item.text === "Description"));
    expect(continued.length).toBeGreaterThanOrEqual(5);
    for (const page of all) expect(page.items.map((item) => item.text)).toEqual(expect.arrayContaining(["Northside Collision Center", "SUPPLEMENT S01"]));
    for (const page of continued) {
      const heads = page.items.filter((item) => ["Description", "Labour", "Amount"].includes(item.text));
      expect(heads.map((item) => item.font)).toEqual(["NotoSans-Bold", "NotoSans-Bold", "NotoSans-Bold"]);
      const cells = page.items.filter((item) => item.tag === "TD");
      const top = Math.max(...cells.map((item) => item.y));
      const firstRow = cells.filter((item) => item.y === top);
      expect(firstRow.length).toBeGreaterThanOrEqual(3);
      expect(firstRow.map((item) => `${item.text}: ${item.font}`)).toEqual(firstRow.map((item) => `${item.text}: NotoSans-Regular`));
    }
  }, SLOW);

  it("60 damages on one photo: listed in a numbered legend under it, nothing off the page", async () => {
    const { pages: all } = await readPdf(await renderEstimatePdf(await hailEstimate()));
    for (const [n, page] of all.entries()) {
      const outside = page.items.filter((item) => item.x < 0 || item.x + item.width > page.width || item.y < 0 || item.y > page.height);
      expect(outside.map((item) => item.text), `text off page ${n + 1}`).toEqual([]);
    }
    const legend = all[0].items.find((item) => item.text.startsWith("Damages "));
    expect(legend?.text).toBe("Damages 1, 2, 4–60");
    // Under the first photo (three to a row across the page's 532 points, 40 from its left edge).
    expect(legend!.x).toBeGreaterThanOrEqual(40);
    expect(legend!.x + legend!.width).toBeLessThanOrEqual(40 + (532 - 20) / 3);
  }, SLOW);

  it("markers wrap in rows and stay on their photo (17 damages on the first)", async () => {
    const { pages: all } = await readPdf(await renderEstimatePdf(await longEstimate({ lines: 8, damages: 18 })));
    const markers = all[0].items.filter((item) => item.tag === "Figure" && /^\d+$/.test(item.text));
    const photoWidth = (532 - 20) / 3;
    const first = markers.filter((item) => item.x < 40 + photoWidth);
    expect(first.map((item) => Number(item.text))).toEqual([1, 2, ...Array.from({ length: 15 }, (_, i) => i + 4)]);
    for (const item of first) expect(item.x + item.width).toBeLessThanOrEqual(40 + photoWidth);
    const rows = [...new Set(first.map((item) => Math.round(item.y)))];
    expect(rows).toHaveLength(2);
    expect(Math.max(...rows) - Math.min(...rows)).toBeLessThan(photoWidth * 0.66 - 14);
    expect(all[0].items.some((item) => item.text.startsWith("Damages "))).toBe(false);
  }, SLOW);

  it("a video's frames are captioned on the photo with their number and time, and their alternative text says so", async () => {
    const e = await longEstimate({ lines: 8 });
    e.photos = e.photos.map((photo, i) => ({ ...photo, frame: { n: i + 1, at: `0:0${i * 2}.5` } }));
    const { pages: all } = await readPdf(await renderEstimatePdf(e));
    const captions = all[0].items.filter((item) => item.tag === "Figure" && item.text.startsWith("Frame "));
    expect(captions.map((item) => item.text)).toEqual(["Frame 1 · 0:00.5", "Frame 2 · 0:02.5", "Frame 3 · 0:04.5"]);
    const photoWidth = (532 - 20) / 3;
    for (const [k, item] of captions.entries()) expect(item.x + item.width).toBeLessThanOrEqual(40 + k * (photoWidth + 10) + photoWidth);
    expect(JSON.stringify(all[0].structure)).toContain("Frame 1 · 0:00.5, damages 1, 2");
  }, SLOW);

  it("terms fill their variables as text; a template that does not compile prints as written", () => {
    const data = { customer: "<b>Ann</b>", account: "Shop", title: "T", total: "$1.00", validUntil: "Dec 1" };
    expect(renderTerms("Dear {{customer.name}}, {{estimate.total}} until {{estimate.validUntil}}.", data)).toBe("Dear <b>Ann</b>, $1.00 until Dec 1.");
    expect(renderTerms("{{#if}", data)).toBe("{{#if}");
    expect(renderTerms("{{constructor.constructor}}", data)).toBe("");
  });
});

describe("approval line by line on the PDF (issue 40 item 6)", () => {
  it("marks optional lines, and once the customer decided prints each line's decision, the approved total, the signature and the signed PDF's hash", async () => {
    const e = await longEstimate({ lines: 4, damages: 1 });
    e.sheet = { ...e.sheet, lines: e.sheet.lines.map((l, i) => (i === 1 ? { ...l, optional: true as const } : l)) };
    const before = (await pages(await renderEstimatePdf(e))).texts.join("\n");
    expect(before).toContain("(Optional)");
    expect(before).not.toContain("CUSTOMER APPROVAL");
    e.approval = {
      decision: "approved",
      decidedAt: new Date("2026-11-29T10:15:00Z"),
      signatureName: "Jane Doe",
      approvedTotalCents: 123456,
      lines: [
        { label: "#1 Door dent", optional: false, decision: "approved", amountCents: 100000 },
        { label: "#1 Door blend", optional: true, decision: "declined", amountCents: 20000 },
      ],
      ip: "203.0.113.9",
      pdfSha256: "ab".repeat(32),
    };
    const after = (await pages(await renderEstimatePdf(e))).texts.join("\n");
    expect(after).toContain("CUSTOMER APPROVAL");
    expect(after).toContain("Approved by Jane Doe");
    expect(after).toContain("Approved total: $1,234.56");
    expect(after).toMatch(/#1 Door blend \(Optional\): declined, \$200\.00/);
    expect(after).toContain("IP 203.0.113.9");
    expect(after.replace(/\s+/g, "")).toContain("ab".repeat(32));
  });
});
