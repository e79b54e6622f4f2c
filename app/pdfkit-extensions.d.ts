// What the estimate PDF uses of pdfkit beyond its published type declarations (@types/pdfkit),
// as pdfkit's own source has it: declared once here, so the code that uses it needs no casts.
declare namespace PDFKit {
  interface PDFDocument {
    /** Writes the Info dictionary and the XMP metadata (EstimatePdfDocument escapes the latter's text first). */
    _addInfo(): void;
    /** A parsed fontkit font is a font's source too (the declarations list only files and bytes). */
    registerFont(name: string, src: import("fontkit").Font): this;
  }
  interface PDFStructureElement {
    /** The element's dictionary: its attributes (`A`) are where a table cell's column span goes. */
    dictionary: { data: { A?: Record<string, unknown> } };
  }
}
