import { LOCALES } from "~/utils/locale-format";
import type { EstimateLanguage, LabourCategory, Operation, PartType } from "~/schemas/estimate-sheet";

/** The printed estimate's words in the customer's language (EN/ES/FR). */
export interface PdfWords {
  locale: string;
  estimate: string;
  supplement: (label: string) => string;
  number: string;
  date: string;
  validUntil: string;
  customer: string;
  vehicle: string;
  vin: string;
  mileage: string;
  notGiven: string;
  noCustomer: string;
  photos: string;
  /** A photo's alternative text: its number, and the damages seen on it ("1, 2, 4–60"). */
  photo: (n: number, damages: string | null) => string;
  /** A video frame's caption (damages null) and alternative text: its number, its time in the video, the damages seen on it. */
  frame: (n: number, at: string, damages: string | null) => string;
  damages: string;
  noDamages: string;
  lines: string;
  columns: { damage: string; description: string; labour: string; part: string; qty: string; amount: string };
  operations: Record<Operation, string>;
  categories: Record<LabourCategory, string>;
  partTypes: Record<PartType, string>;
  materials: string;
  sublet: string;
  other: string;
  noLines: string;
  totals: {
    parts: string;
    labour: (category: string) => string;
    materials: string;
    sublet: string;
    other: string;
    subtotal: string;
    tax: (what: string, rate: number) => string;
    total: string;
    tbd: string;
    deductible: string;
    customerPays: string;
    insurerPays: string;
  };
  terms: string;
  signature: { customer: string; date: string; shop: string; accept: string };
  /** A line the customer may leave out (docs/decisions/0063), and the customer's approval as signed. */
  optional: string;
  approval: {
    title: string;
    approved: string;
    declined: string;
    total: string;
    signed: (name: string, at: string) => string;
    declinedAt: (at: string) => string;
    evidence: (ip: string, hash: string) => string;
  };
  page: (n: number, of: number) => string;
  severities: Record<string, string>;
  locations: Record<string, string>;
}

const EN: PdfWords = {
  locale: LOCALES.en,
  estimate: "Estimate",
  supplement: (label) => `Supplement ${label}`,
  number: "No.",
  date: "Date",
  validUntil: "Valid until",
  customer: "Customer",
  vehicle: "Vehicle",
  vin: "VIN",
  mileage: "Mileage",
  notGiven: "Not specified",
  noCustomer: "Unknown contact",
  photos: "Photos",
  photo: (n, damages) => `Photo ${n}${damages ? `, damages ${damages}` : ""}`,
  frame: (n, at, damages) => `Frame ${n} · ${at}${damages ? `, damages ${damages}` : ""}`,
  damages: "Damages",
  noDamages: "None recorded",
  lines: "Estimate lines",
  columns: { damage: "Dmg", description: "Description", labour: "Labour", part: "Part", qty: "Qty", amount: "Amount" },
  operations: { repair: "Repair", replace: "Replace", refinish: "Refinish", blend: "Blend", remove_install: "Remove & install", sublet: "Sublet" },
  categories: { body: "body", refinish: "refinish", mechanical: "mechanical", frame: "frame" },
  partTypes: { oem: "OEM", aftermarket: "Aftermarket", used: "Used", reconditioned: "Reconditioned" },
  materials: "paint materials",
  sublet: "sublet",
  other: "flat amount",
  noLines: "No lines yet: to be determined",
  totals: {
    parts: "Parts",
    labour: (c) => `Labour (${c})`,
    materials: "Paint materials",
    sublet: "Sublet",
    other: "Flat amounts",
    subtotal: "Subtotal",
    tax: (what, rate) => `Tax on ${what} (${rate}%)`,
    total: "Total (USD)",
    tbd: "TBD",
    deductible: "Deductible",
    customerPays: "Customer pays",
    insurerPays: "Insurer pays",
  },
  terms: "Terms",
  signature: { customer: "Customer signature", date: "Date", shop: "Authorized by", accept: "I authorize the repairs described above at the prices shown." },
  optional: "Optional",
  approval: {
    title: "Customer approval",
    approved: "approved",
    declined: "declined",
    total: "Approved total",
    signed: (name, at) => `Approved by ${name} on ${at} (UTC)`,
    declinedAt: (at) => `Declined on ${at} (UTC)`,
    evidence: (ip, hash) => `IP ${ip} · SHA-256 of the PDF signed: ${hash}`,
  },
  page: (n, of) => `Page ${n} of ${of}`,
  severities: { minor: "minor", moderate: "moderate", major: "major", severe: "severe" },
  locations: { front: "front", rear: "rear", left: "left", right: "right", top: "top", bottom: "bottom", center: "center" },
};

const ES: PdfWords = {
  ...EN,
  locale: LOCALES.es,
  estimate: "Presupuesto",
  supplement: (label) => `Suplemento ${label}`,
  number: "N.º",
  date: "Fecha",
  validUntil: "Válido hasta",
  customer: "Cliente",
  vehicle: "Vehículo",
  vin: "VIN",
  mileage: "Kilometraje",
  notGiven: "No especificado",
  noCustomer: "Contacto desconocido",
  photos: "Fotos",
  photo: (n, damages) => `Foto ${n}${damages ? `, daños ${damages}` : ""}`,
  frame: (n, at, damages) => `Fotograma ${n} · ${at}${damages ? `, daños ${damages}` : ""}`,
  damages: "Daños",
  noDamages: "Ninguno registrado",
  lines: "Líneas del presupuesto",
  columns: { damage: "Daño", description: "Descripción", labour: "Mano de obra", part: "Pieza", qty: "Cant.", amount: "Importe" },
  operations: { repair: "Reparar", replace: "Reemplazar", refinish: "Repintar", blend: "Difuminar", remove_install: "Desmontar y montar", sublet: "Subcontrato" },
  categories: { body: "carrocería", refinish: "pintura", mechanical: "mecánica", frame: "bastidor" },
  partTypes: { oem: "Original", aftermarket: "Alternativa", used: "Usada", reconditioned: "Reacondicionada" },
  materials: "materiales de pintura",
  sublet: "subcontrato",
  other: "importe fijo",
  noLines: "Sin líneas todavía: por determinar",
  totals: {
    parts: "Piezas",
    labour: (c) => `Mano de obra (${c})`,
    materials: "Materiales de pintura",
    sublet: "Subcontrato",
    other: "Importes fijos",
    subtotal: "Subtotal",
    tax: (what, rate) => `Impuesto sobre ${what} (${rate}%)`,
    total: "Total (USD)",
    tbd: "Por determinar",
    deductible: "Deducible",
    customerPays: "Paga el cliente",
    insurerPays: "Paga la aseguradora",
  },
  terms: "Condiciones",
  signature: { customer: "Firma del cliente", date: "Fecha", shop: "Autorizado por", accept: "Autorizo las reparaciones descritas a los precios indicados." },
  optional: "Opcional",
  approval: {
    title: "Aprobación del cliente",
    approved: "aprobada",
    declined: "rechazada",
    total: "Total aprobado",
    signed: (name, at) => `Aprobado por ${name} el ${at} (UTC)`,
    declinedAt: (at) => `Rechazado el ${at} (UTC)`,
    evidence: (ip, hash) => `IP ${ip} · SHA-256 del PDF firmado: ${hash}`,
  },
  page: (n, of) => `Página ${n} de ${of}`,
  severities: { minor: "leve", moderate: "moderado", major: "grave", severe: "muy grave" },
  locations: { front: "delantera", rear: "trasera", left: "izquierda", right: "derecha", top: "superior", bottom: "inferior", center: "central" },
};

const FR: PdfWords = {
  ...EN,
  locale: LOCALES.fr,
  estimate: "Devis",
  supplement: (label) => `Supplément ${label}`,
  number: "N°",
  date: "Date",
  validUntil: "Valable jusqu'au",
  customer: "Client",
  vehicle: "Véhicule",
  vin: "NIV",
  mileage: "Kilométrage",
  notGiven: "Non précisé",
  noCustomer: "Contact inconnu",
  photos: "Photos",
  photo: (n, damages) => `Photo ${n}${damages ? `, dommages ${damages}` : ""}`,
  frame: (n, at, damages) => `Image ${n} · ${at}${damages ? `, dommages ${damages}` : ""}`,
  damages: "Dommages",
  noDamages: "Aucun",
  lines: "Lignes du devis",
  columns: { damage: "Dom.", description: "Description", labour: "Main-d'œuvre", part: "Pièce", qty: "Qté", amount: "Montant" },
  operations: { repair: "Réparer", replace: "Remplacer", refinish: "Peindre", blend: "Raccord", remove_install: "Déposer et reposer", sublet: "Sous-traitance" },
  categories: { body: "carrosserie", refinish: "peinture", mechanical: "mécanique", frame: "châssis" },
  partTypes: { oem: "D'origine", aftermarket: "Adaptable", used: "Occasion", reconditioned: "Reconditionnée" },
  materials: "ingrédients peinture",
  sublet: "sous-traitance",
  other: "montant forfaitaire",
  noLines: "Aucune ligne pour l'instant : à déterminer",
  totals: {
    parts: "Pièces",
    labour: (c) => `Main-d'œuvre (${c})`,
    materials: "Ingrédients peinture",
    sublet: "Sous-traitance",
    other: "Montants forfaitaires",
    subtotal: "Sous-total",
    tax: (what, rate) => `Taxe sur ${what} (${rate} %)`,
    total: "Total (USD)",
    tbd: "À déterminer",
    deductible: "Franchise",
    customerPays: "À la charge du client",
    insurerPays: "À la charge de l'assureur",
  },
  terms: "Conditions",
  signature: { customer: "Signature du client", date: "Date", shop: "Autorisé par", accept: "J'autorise les réparations décrites ci-dessus aux prix indiqués." },
  optional: "Facultative",
  approval: {
    title: "Approbation du client",
    approved: "approuvée",
    declined: "refusée",
    total: "Total approuvé",
    signed: (name, at) => `Approuvé par ${name} le ${at} (UTC)`,
    declinedAt: (at) => `Refusé le ${at} (UTC)`,
    evidence: (ip, hash) => `IP ${ip} · SHA-256 du PDF signé : ${hash}`,
  },
  page: (n, of) => `Page ${n} sur ${of}`,
  severities: { minor: "léger", moderate: "modéré", major: "important", severe: "grave" },
  locations: { front: "avant", rear: "arrière", left: "gauche", right: "droite", top: "haut", bottom: "bas", center: "centre" },
};

export const PDF_WORDS: Record<EstimateLanguage, PdfWords> = { en: EN, es: ES, fr: FR };
