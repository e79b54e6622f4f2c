import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureVeraPdf, VERAPDF_LIB } from "../../scripts/setup.mjs";
import { renderEstimatePdf, type EstimateDocument } from "./estimate-pdf-layout.server";
import { longEstimate } from "./estimate-pdf.fixture";
import { readPdf, roles } from "./estimate-pdf.reader";

// The estimate of record is an archival, accessible document (issue 37): PDF/A-2a, tagged, in the
// estimate's language. veraPDF (tools/verapdf, built by scripts/setup.mjs) validates every kind of
// estimate in one run of its command line; any failed rule fails the test and is printed.

/** An estimate at the edges: a shop name XML must escape, a logo with transparency, no customer, no photos, no lines, a total to be determined. */
async function edgeEstimate(): Promise<EstimateDocument> {
  const e = await longEstimate({ lines: 0, damages: 0 });
  const logo = await sharp({ create: { width: 120, height: 60, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } }).png().toBuffer();
  return {
    ...e,
    account: { name: `Smith & Sons <Body> "Shop" Łódź`, lines: [], logo },
    customer: null,
    photos: [],
    totalCents: null,
    costNote: "To be determined after teardown",
    terms: "",
  };
}

const DOCUMENTS: [string, () => Promise<EstimateDocument>][] = [
  ["1-page", () => longEstimate({ lines: 2 })],
  ["8-page", () => longEstimate({ lines: 100, damages: 60, hail: true })],
  ["es", () => longEstimate({ lines: 8, language: "es" })],
  ["fr", () => longEstimate({ lines: 8, language: "fr" })],
  ["edges", edgeEstimate],
];

interface VeraReport {
  report: {
    jobs: {
      itemDetails: { name: string };
      validationResult: { compliant: boolean; profileName: string; details: { ruleSummaries: { clause: string; testNumber: number; description: string; checks: { context: string }[] }[] } }[];
    }[];
  };
}

/**
 * veraPDF's PDF/A-2a verdict on each file, in one JVM (its quick compiler only: a short run spends
 * half its time optimising otherwise): the failed rules by file (none: compliant).
 */
function veraPdf(files: string[]) {
  const jvm = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", path.join(VERAPDF_LIB, "*")];
  const cli = ["org.verapdf.apps.GreenfieldCliWrapper", "--flavour", "2a", "--format", "json", "--maxfailuresdisplayed", "3"];
  const out = execFileSync("java", [...jvm, ...cli, ...files], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    cwd: path.dirname(files[0]),
  });
  const { report } = JSON.parse(out) as VeraReport;
  return report.jobs.map(({ itemDetails, validationResult: [result] }) => ({
    file: path.basename(itemDetails.name),
    profile: result.profileName,
    compliant: result.compliant,
    failed: result.details.ruleSummaries.map((r) => `${r.clause}-${r.testNumber} ${r.description} (${r.checks[0]?.context ?? ""})`),
  }));
}

describe("the estimate PDF as an archival, tagged document", { timeout: 90_000 }, () => {
  let pdfs: Record<string, Buffer> = {};
  beforeAll(async () => {
    ensureVeraPdf();
    pdfs = Object.fromEntries(await Promise.all(DOCUMENTS.map(async ([name, make]) => [name, await renderEstimatePdf(await make())] as const)));
  }, 600_000);

  it("is PDF/A-2a for veraPDF: short and long, in English, Spanish and French, and at the edges", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "estimate-pdfa-"));
    try {
      const files = Object.entries(pdfs).map(([name, pdf]) => {
        const file = path.join(dir, `${name}.pdf`);
        writeFileSync(file, pdf);
        return file;
      });
      const verdicts = veraPdf(files);
      expect(verdicts.map((v) => v.file).sort()).toEqual(Object.keys(pdfs).map((n) => `${n}.pdf`).sort());
      for (const v of verdicts) expect(v.profile).toMatch(/PDF\/A-2A/);
      expect(verdicts.filter((v) => !v.compliant).map((v) => `${v.file}:\n  ${v.failed.join("\n  ")}`)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("says what it is: PDF/A-2a in its metadata, PDF 1.7, its title shown, in the estimate's language", async () => {
    for (const [name, language, title] of [
      ["1-page", "en-US", "Estimate: Silver Camry, front left collision"],
      ["es", "es-US", "Presupuesto: Silver Camry, front left collision"],
      ["fr", "fr-CA", "Devis: Silver Camry, front left collision"],
    ] as const) {
      const pdf = pdfs[name];
      const { info, title: xmpTitle } = await readPdf(pdf);
      expect(info).toMatchObject({ PDFFormatVersion: "1.7", Language: language, Title: title, Author: "Northside Collision Center" });
      expect(xmpTitle).toBe(title);
      const raw = pdf.toString("latin1");
      expect(raw).toContain("<pdfaid:part>2</pdfaid:part>");
      expect(raw).toContain("<pdfaid:conformance>A</pdfaid:conformance>");
      expect(raw).toMatch(/\/DisplayDocTitle true/);
    }
    // A shop's name with XML's special characters stays itself in both the Info dictionary and the XMP.
    const edges = await readPdf(pdfs.edges);
    expect(edges.info.Author).toBe(`Smith & Sons <Body> "Shop" Łódź`);
    expect(pdfs.edges.toString("utf8")).toContain("<rdf:li>Smith &#38; Sons &#60;Body&#62; &#34;Shop&#34; Łódź</rdf:li>");
  });

  it("is tagged: headings, the lines as a table, photos as figures with their damages; the repeated header and page numbers are artifacts; no text outside both", async () => {
    const { pages } = await readPdf(pdfs["8-page"]);
    const first = pages[0];
    expect(roles(first.structure)).toEqual(expect.arrayContaining(["Document", "H1", "H2", "P", "Figure", "L", "LI", "LBody"]));
    const figures = first.structure.children.flatMap(function all(n): { role: string; alt?: string }[] {
      return [n, ...n.children.flatMap(all)];
    });
    expect(figures.filter((n) => n.role === "Figure").map((n) => n.alt)).toEqual(["Photo 1, damages 1, 2, 4–60", "Photo 2, damages 3", "Photo 3"]);
    const tableRoles = pages.flatMap((p) => roles(p.structure));
    expect(tableRoles).toEqual(expect.arrayContaining(["Table", "TR", "TH", "TD"]));
    expect(first.items.find((i) => i.text === "SUPPLEMENT S01")?.tag).toBe("H1");
    expect(first.items.find((i) => i.text === "PHOTOS")?.tag).toBe("H2");
    expect(first.items.find((i) => i.text === "Ana García")?.tag).toBe("P");
    pages.forEach((page, i) => {
      expect(page.items.filter((item) => item.tag === null).map((item) => item.text), `untagged text on page ${i + 1}`).toEqual([]);
      expect(page.items.find((item) => item.text === `Page ${i + 1} of ${pages.length}`)?.tag).toBe("Artifact");
      if (i > 0) {
        expect(roles(page.structure)).not.toContain("H1");
        expect(page.items.find((item) => item.text === "SUPPLEMENT S01")?.tag).toBe("Artifact");
      }
    });
    // The column heads are the table's header row where the table starts, artifacts where repeated.
    const heads = pages.flatMap((p) => p.items).filter((item) => item.text === "Description");
    expect(heads.length).toBeGreaterThan(4);
    expect(heads.map((item) => item.tag)).toEqual(["TH", ...heads.slice(1).map(() => "Artifact")]);
  });
});
