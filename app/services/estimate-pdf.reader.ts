import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

// The PDF tests read a rendered estimate back as a customer's tools would: poppler's pdftotext and
// pdffonts (installed by scripts/setup.mjs), and pdf.js (what browsers show) for where each piece
// of text is, in which font, and the document's structure tree.

/** Runs a poppler tool on the PDF's bytes; its standard output. */
export function poppler(tool: "pdftotext" | "pdffonts" | "pdfinfo", pdf: Buffer, args: string[] = []) {
  const dir = mkdtempSync(path.join(tmpdir(), "estimate-pdf-"));
  try {
    const file = path.join(dir, "estimate.pdf");
    writeFileSync(file, pdf);
    return execFileSync(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface TextItem {
  text: string;
  /** Left and baseline, in points from the page's bottom left corner. */
  x: number;
  y: number;
  width: number;
  size: number;
  /** The font's name without its subset tag: "NotoSans-Regular". */
  font: string;
  /** The marked content it is in: a structure type ("P", "TD", "H1", ...), "Artifact", or null (untagged). */
  tag: string | null;
}

export interface StructNode {
  role: string;
  alt?: string;
  children: StructNode[];
}

/** Every page's text items and structure, the page size, and the document's metadata. */
export async function readPdf(pdf: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0, isEvalSupported: false }).promise;
  try {
    const pages: { width: number; height: number; items: TextItem[]; structure: StructNode }[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const [content] = await Promise.all([page.getTextContent({ includeMarkedContent: true }), page.getOperatorList()]);
      const [, , width, height] = page.view;
      const open: string[] = [];
      const items = content.items.flatMap((item) => {
        if (!("str" in item)) {
          if (item.type === "endMarkedContent") open.pop();
          else open.push((item as { tag?: string }).tag ?? ""); // pdf.js passes the tag, undeclared in its types
          return [];
        }
        if (!item.str.trim()) return [];
        const font = (page.commonObjs.get(item.fontName) as { name: string }).name.replace(/^[A-Z]{6}\+/, "");
        return [{ text: item.str, x: item.transform[4], y: item.transform[5], width: item.width, size: item.transform[3], font, tag: open.at(-1) ?? null }];
      });
      pages.push({ width, height, items, structure: structOf(await page.getStructTree()) });
    }
    const { info, metadata } = await doc.getMetadata();
    return { pages, info: info as Record<string, unknown>, title: metadata?.get("dc:title") as string | undefined };
  } finally {
    await doc.destroy();
  }
}

type RawNode = { role?: string; type?: string; alt?: string; children?: RawNode[] };
function structOf(node: RawNode): StructNode {
  return { role: node.role ?? node.type ?? "", alt: node.alt, children: (node.children ?? []).map(structOf) };
}

/** The roles of a structure tree, depth first ("Document", "H1", "Table", "TR", ...). */
export function roles(node: StructNode): string[] {
  return [node.role, ...node.children.flatMap(roles)];
}
