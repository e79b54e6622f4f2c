import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PDFParse } from "pdf-parse";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { renderEstimatePdf, renderTerms } from "./estimate-pdf-layout.server";
import { longEstimate } from "./estimate-pdf.fixture";

// The PDF a shop signs, looked at as a customer would: a 60-line estimate laid out, its text read
// back, and its first and last pages rendered to PNG (pdf.js through pdf-parse) and compared with
// reference images a person reviewed (app/services/__fixtures__/estimate-pdf-page-*.png). After an
// intended change of the layout: UPDATE_PDF_REFERENCE=1, look at the new images, commit them.

const FIXTURES = path.join(import.meta.dirname, "__fixtures__");

async function pages(pdf: Buffer) {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const text = await parser.getText();
    const shots = await parser.getScreenshot({ scale: 1, imageBuffer: true, imageDataUrl: false });
    return { texts: text.pages.map((p) => p.text), images: shots.pages.map((p) => Buffer.from(p.data)) };
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
  });

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
  });

  it("looks as reviewed: its first and last pages match the reference images", async () => {
    const { images } = await pages(await renderEstimatePdf(await longEstimate()));
    const names = { first: images[0], last: images[images.length - 1] };
    for (const [name, image] of Object.entries(names)) {
      const reference = path.join(FIXTURES, `estimate-pdf-page-${name}.png`);
      if (process.env.UPDATE_PDF_REFERENCE === "1" || !existsSync(reference)) {
        mkdirSync(FIXTURES, { recursive: true });
        writeFileSync(reference, image);
        continue;
      }
      expect(await difference(image, readFileSync(reference)), `${name} page differs from ${reference}`).toBeLessThan(0.005);
    }
    // The comparison sees a change a customer would: the same estimate in French is not the reference.
    const french = (await pages(await renderEstimatePdf(await longEstimate({ language: "fr" })))).images[0];
    expect(await difference(french, readFileSync(path.join(FIXTURES, "estimate-pdf-page-first.png")))).toBeGreaterThan(0.005);
  });

  it("terms fill their variables as text; a template that does not compile prints as written", () => {
    const data = { customer: "<b>Ann</b>", account: "Shop", title: "T", total: "$1.00", validUntil: "Dec 1" };
    expect(renderTerms("Dear {{customer.name}}, {{estimate.total}} until {{estimate.validUntil}}.", data)).toBe("Dear <b>Ann</b>, $1.00 until Dec 1.");
    expect(renderTerms("{{#if}", data)).toBe("{{#if}");
    expect(renderTerms("{{constructor.constructor}}", data)).toBe("");
  });
});
