import { beforeAll, describe, expect, it } from "vitest";
import { ensurePoppler } from "../../scripts/setup.mjs";
import { printable, REPLACEMENT } from "./estimate-pdf-fonts.server";
import { renderEstimatePdf } from "./estimate-pdf-layout.server";
import { longEstimate } from "./estimate-pdf.fixture";
import { poppler } from "./estimate-pdf.reader";

// Real names on the PDF a customer gets (issue 37): Polish, Czech, Romanian, Turkish, Vietnamese,
// Greek, Cyrillic, French and Spanish, in every place a shop or a customer types text, read back with
// pdftotext as a customer's tools would. A character no font has prints as U+FFFD, never as garbage.

const CORPUS = {
  account: "Nguyễn Thị Dvořák-Łukasiewicz",
  accountLines: ["ul. Świętokrzyska 12, Kraków", "Strada Ștefan cel Mare 4, Chișinău"],
  customer: "Łukasz Dvořák-Nguyễn",
  vehicle: "2019 Škoda Octavia, Çağrı Öztürk",
  descriptions: ["Γιώργος Παπαδόπουλος", "Ёлкина Юлия", "François Müller-Niño", "Trần Hưng Đạo", "Přemysl Šťastný"],
  note: "Begoña Ibáñez",
  terms: "Merci {{customer.name}}. Ευχαριστούμε. Спасибо. Cảm ơn quý khách.",
};

async function corpusEstimate() {
  const e = await longEstimate({ lines: 6 });
  e.account = { ...e.account, name: CORPUS.account, lines: CORPUS.accountLines };
  e.customer = { name: CORPUS.customer, email: "lukasz@example.com" };
  e.vehicle = { ...e.vehicle, description: CORPUS.vehicle };
  e.sheet.lines = e.sheet.lines.map((line, i) => ({ ...line, description: CORPUS.descriptions[i] ?? line.description, note: i === 0 ? CORPUS.note : "" }));
  e.terms = CORPUS.terms;
  return e;
}

describe("the estimate PDF's fonts", { timeout: 60_000 }, () => {
  beforeAll(ensurePoppler, 300_000);

  it("prints every name of the corpus, wherever it is typed, as pdftotext reads it back", async () => {
    const pdf = await renderEstimatePdf(await corpusEstimate());
    const text = poppler("pdftotext", pdf, ["-raw", "-enc", "UTF-8"]).normalize("NFC");
    const expected = [CORPUS.account, ...CORPUS.accountLines, CORPUS.customer, CORPUS.vehicle, ...CORPUS.descriptions, CORPUS.note];
    for (const name of expected) expect(text).toContain(name);
    expect(text).toContain(`Merci ${CORPUS.customer}. Ευχαριστούμε. Спасибо. Cảm ơn quý khách.`);
    expect(text).not.toContain(REPLACEMENT);
  });

  it("embeds one family, Noto Sans regular and bold, as subsets with their Unicode maps; no standard font", async () => {
    const fonts = poppler("pdffonts", await renderEstimatePdf(await corpusEstimate()))
      .split("\n")
      .slice(2)
      .filter(Boolean)
      .map((row) => row.split(/\s+/));
    expect(fonts.map(([name]) => name.replace(/^[A-Z]{6}\+/, "")).sort()).toEqual(["NotoSans-Bold", "NotoSans-Regular"]);
    // emb, sub, uni: embedded, subset, with a ToUnicode map.
    for (const row of fonts) expect(row.slice(-5, -2)).toEqual(["yes", "yes", "yes"]);
  });

  it("prints a character no font has as U+FFFD (another script, an emoji, a control character); composes combining accents", async () => {
    const e = await corpusEstimate();
    e.sheet.lines[0] = { ...e.sheet.lines[0], description: "王小明 door", note: "🚗\u0007 ok" };
    e.customer = { name: "Nguye\u0302\u0303n Van", email: null };
    const text = poppler("pdftotext", await renderEstimatePdf(e), ["-raw", "-enc", "UTF-8"]);
    expect(text).toContain(`${REPLACEMENT.repeat(3)} door - ${REPLACEMENT.repeat(2)} ok`);
    expect(text).toContain("Nguyễn Van");
    expect(text.split(REPLACEMENT).length - 1).toBe(5);
  });

  it("printable: keeps what the fonts have, line breaks and tabs as text; drops invisible marks", () => {
    expect(printable("Ёлкина\r\nЮлия\tŁ")).toBe("Ёлкина\nЮлия Ł");
    expect(printable("\uFEFFAna\u200B")).toBe("Ana");
    expect(printable("a\u0000b\u0085c")).toBe(`a${REPLACEMENT}b${REPLACEMENT}c`);
  });
});
