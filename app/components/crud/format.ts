// Formatting shared by server render and browser: fixed locale and time zone, so the HTML the
// server sends and the browser's first render agree (no hydration mismatch).

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const wholeUsd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** Package prices: whole US dollars ("$1,250"). */
export const formatWholeUsd = (amount: number) => wholeUsd.format(amount);

/** Amounts with cents ("$1,250.50"): estimates, training costs, vendor prices. */
export const formatUsd = (amount: number) => usd.format(amount);

/** The first `max` characters followed by "..." when the text is longer. */
export const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}...` : text);

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** What an HTML template reads as (a card's preview): no tags, styles or scripts, entities decoded, spaces collapsed. */
export const plainText = (html: string) =>
  html
    .replace(/<(style|script|head)\b[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** Date and time in `timeZone` (the server's, sent by the loader, so server and browser agree); formats made once per zone. */
export function formatDateTime(iso: string, timeZone: string) {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone });
    dateTimeFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}
