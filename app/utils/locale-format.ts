// Dates and money in the reader's language: one set of formats for the screens (server render and
// browser alike: the language comes from the root loader, the time zone is fixed or sent by the
// loader, so the HTML the server sends and the browser's first render agree) and the PDF's dates.

/** The locale of each language the app speaks, as the estimate PDF prints it (US dollars in every one). */
export const LOCALES = { en: "en-US", es: "es-US", fr: "fr-CA" } as const;

const localeOf = (language: string) => (language === "es" || language === "fr" ? LOCALES[language] : LOCALES.en);

export interface Formatters {
  locale: string;
  /** "Nov 27, 2026", "27 nov 2026", "27 nov. 2026" (UTC). */
  date: (value: string | Date) => string;
  /** Date and time in `timeZone` (the server's, sent by the loader). */
  dateTime: (value: string | Date, timeZone: string) => string;
  /** Amounts with cents: "$1,250.50", "1 250,50 $ US". */
  usd: (amount: number) => string;
  /** Whole dollars: package prices. */
  wholeUsd: (amount: number) => string;
  /** Cents as money; null (a total still to be determined) as TBD. */
  cents: (cents: number | null) => string;
  /** Dollars as money; null as TBD. */
  dollars: (amount: number | null) => string;
  /** A count: "1,234", "1 234" (fr). */
  count: (value: number) => string;
  /** A percentage with `digits` decimals: "94.5%", "94,5 %" (fr). */
  percent: (value: number, digits: number) => string;
}

const made = new Map<string, Formatters>();

/** The formats of a language (an unknown one reads as English), made once per language. */
export function formattersFor(language: string): Formatters {
  const locale = localeOf(language);
  const known = made.get(locale);
  if (known) return known;
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dateTimes = new Map<string, Intl.DateTimeFormat>();
  const usd = new Intl.NumberFormat(locale, { style: "currency", currency: "USD" });
  const wholeUsd = new Intl.NumberFormat(locale, { style: "currency", currency: "USD", minimumFractionDigits: 0, maximumFractionDigits: 0 });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const percents = new Map<number, Intl.NumberFormat>();
  const formatters: Formatters = {
    locale,
    date: (value) => date.format(new Date(value)),
    dateTime: (value, timeZone) => {
      let format = dateTimes.get(timeZone);
      if (!format) {
        format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
        dateTimes.set(timeZone, format);
      }
      return format.format(new Date(value));
    },
    usd: (amount) => usd.format(amount),
    wholeUsd: (amount) => wholeUsd.format(amount),
    cents: (cents) => (cents === null ? "TBD" : usd.format(cents / 100)),
    dollars: (amount) => (amount === null ? "TBD" : usd.format(amount)),
    count: (value) => count.format(value),
    percent: (value, digits) => {
      let format = percents.get(digits);
      if (!format) {
        format = new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
        percents.set(digits, format);
      }
      return format.format(value / 100);
    },
  };
  made.set(locale, formatters);
  return formatters;
}
