import type { FontStyle } from "./estimate-pdf-fonts.server";

/**
 * Writing a tagged PDF (PDF/A-2a, decision 0026): every mark on a page is either the content of a
 * structure element (a heading, a paragraph, a table cell, a figure) or an artifact that readers
 * skip (decorations, the header repeated on continuation pages, page numbers). The pen also keeps
 * the text style it last set, so that whatever interrupts the writing (a page break drawing the
 * header) hands the same font, size and colour back.
 */

export type Element = PDFKit.PDFStructureElement;
/** Table cells: a header's Scope (pdfkit writes it; its type declarations omit it) and a cell's ColSpan. */
type ElementOptions = PDFKit.Mixins.StructureElementOptions & { scope?: "Row" | "Column"; colSpan?: number };

export function pen(doc: PDFKit.PDFDocument) {
  let style: { font: FontStyle; size: number; color: string } = { font: "regular", size: 9, color: "#000000" };
  const root = doc.struct("Document");
  doc.addStructure(root);

  const apply = () => doc.font(style.font).fontSize(style.size).fillColor(style.color);
  return {
    root,
    /** Sets the text style (and keeps it for `restore`). */
    use(font: FontStyle, size: number, color: string) {
      style = { font, size, color };
      return apply();
    },
    /** The last style set with `use`, again (after drawing in another one). */
    restore: apply,
    /** A leaf element under `parent`: what `draw` writes is its content (drawn now). */
    tag(parent: Element, type: string, draw: () => void, { colSpan, ...options }: ElementOptions = {}) {
      const element = doc.struct(type, options, [draw]);
      if (colSpan) {
        const { data } = element.dictionary;
        data.A = { ...data.A, O: "Table", ColSpan: colSpan };
      }
      parent.add(element);
      return element;
    },
    /** An element holding others: `fill` adds them, then it is closed. */
    group(parent: Element, type: string, fill: (element: Element) => void, options: ElementOptions = {}) {
      const element = doc.struct(type, options);
      parent.add(element);
      fill(element);
      element.end();
      return element;
    },
    /** An element with no content of its own (an empty table cell keeps its column). */
    empty(parent: Element, type: string) {
      const element = doc.struct(type);
      parent.add(element);
      element.end();
    },
    /** Marks drawn outside the structure: never inside a `tag`'s `draw` (an artifact ends it). */
    artifact(draw: () => void, type: "Pagination" | "Layout" = "Layout") {
      doc.markContent("Artifact", { type });
      draw();
      doc.endMarkedContent();
    },
  };
}

export type Pen = ReturnType<typeof pen>;
