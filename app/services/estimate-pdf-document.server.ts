import PDFDocument from "pdfkit";
import type { EstimateLanguage } from "~/schemas/estimate-sheet";
import { printable, registerFonts } from "./estimate-pdf-fonts.server";
import { PDF_WORDS } from "./estimate-pdf-words";

/** The printed estimate's page (US Letter, points): margins, where the header ends and the footer starts. */
export const PAGE = {
  MARGIN: 40,
  HEADER_BOTTOM: 104,
  FOOTER_TOP: 752,
  /** Lowest a line of text may end: below is the footer (text flowing past it goes on a new page). */
  TEXT_BOTTOM: 744,
};

const xmlText = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * pdfkit writes the Title, Author and Subject into the XMP metadata as they are, not escaped: a shop
 * named "Smith & Sons" would make the metadata unreadable and the file not PDF/A. This document
 * escapes them there (its Info dictionary, written before, keeps the text itself).
 */
class EstimatePdfDocument extends PDFDocument {
  _addInfo() {
    const { info } = this;
    this.info = { ...info, Title: info.Title && xmlText(info.Title), Author: info.Author && xmlText(info.Author), Subject: info.Subject && xmlText(info.Subject) };
    super._addInfo();
    this.info = info;
  }
}

/**
 * A new pdfkit document for an estimate: PDF/A-2a, tagged, in the estimate's language, the fonts
 * registered; pages kept until the end (their numbers need the count).
 */
export function newEstimateDoc(e: { id: string; title: string; language: EstimateLanguage; account: { name: string }; issuedAt: Date }) {
  const w = PDF_WORDS[e.language];
  const doc = new EstimatePdfDocument({
    size: "LETTER",
    margins: { top: PAGE.HEADER_BOTTOM, bottom: 792 - PAGE.TEXT_BOTTOM, left: PAGE.MARGIN, right: PAGE.MARGIN },
    bufferPages: true,
    autoFirstPage: false,
    pdfVersion: "1.7",
    subset: "PDF/A-2a",
    tagged: true,
    lang: w.locale,
    displayTitle: true,
    info: {
      Title: printable(`${w.estimate}: ${e.title}`),
      Author: printable(e.account.name),
      Subject: `${w.estimate} ${e.id}`,
      Creator: "DamageIQ",
      CreationDate: e.issuedAt,
    },
  });
  registerFonts(doc);
  doc.font("regular");
  doc.addPage();
  return doc;
}
