// The words index behind the list searches (docs/decisions/0033): a record keeps the prefixes of its
// searched words (`searchTokens`, a multikey index with the owner) and its searched text folded
// (`searchText`); a search asks the index for the words' tokens and tests the literal words on the
// folded text of those few candidates only.

/** Longest prefix kept of a word: a VIN (17) is found by any prefix of it; a longer query part by its first 20. */
export const TOKEN_MAX_LENGTH = 20;

/** Lower case, accents and other marks removed (é → e, ß stays), so a search matches whatever the accents. */
export function fold(text: string) {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** The runs of letters and digits of a folded text. */
const runs = (folded: string) => folded.match(/[\p{L}\p{N}]+/gu) ?? [];

/** A phone's digits written together, and without a country code (the last ten) when it has one. */
function phoneDigits(phone: string | null | undefined) {
  const digits = (phone ?? "").replace(/\D+/g, "");
  return digits.length > 10 ? [digits, digits.slice(-10)] : digits ? [digits] : [];
}

/**
 * The tokens of a record's searched values: every prefix (up to TOKEN_MAX_LENGTH) of every word,
 * and of a phone's digits written together ("(555) 123-4567" is also found as "5551234567").
 */
export function searchTokens(values: readonly (string | null | undefined)[], { phones = [] }: { phones?: readonly (string | null | undefined)[] } = {}) {
  const tokens = new Set<string>();
  const words = [...values, ...phones].flatMap((value) => (value ? runs(fold(value)) : []));
  words.push(...phones.flatMap(phoneDigits));
  for (const word of words) {
    for (let length = 1; length <= Math.min(word.length, TOKEN_MAX_LENGTH); length++) tokens.add(word.slice(0, length));
  }
  return [...tokens];
}

/**
 * The ends of a code (a VIN), from its last 4 characters on, as tokens of their own: a VIN is also
 * searched by its tail ("bba12345"), which no word of it begins with.
 */
export function codeEndings(code: string | null | undefined) {
  const folded = runs(fold(code ?? "")).join("");
  const endings: string[] = [];
  for (let start = 1; start <= folded.length - 4; start++) endings.push(folded.slice(start, start + TOKEN_MAX_LENGTH));
  return endings;
}

/** The folded text a search's words are looked for in: one line per value (a word never spans two), phones' digits too. */
export function searchText(values: readonly (string | null | undefined)[], { phones = [] }: { phones?: readonly (string | null | undefined)[] } = {}) {
  const digits = phones.flatMap(phoneDigits);
  return [...values, ...phones]
    .filter((value): value is string => Boolean(value))
    .map((value) => fold(value))
    .concat(digits)
    .join("\n");
}

/**
 * What a search asks: each word folded (at most 8, as before), and the token each must begin with at a
 * word's start (its first run of letters and digits, cut to TOKEN_MAX_LENGTH); a word of punctuation
 * alone has no token and is only looked for in the text.
 */
export function searchQuery(words: readonly string[]) {
  const folded = words.map(fold);
  const tokens = [...new Set(folded.map((word) => runs(word)[0]?.slice(0, TOKEN_MAX_LENGTH)).filter((t): t is string => Boolean(t)))];
  // The longest token first: the rarest, so the index narrows the most with it.
  tokens.sort((a, b) => b.length - a.length);
  return { words: folded, tokens };
}

/** The text with regular-expression metacharacters escaped, so a search matches it literally. */
export function escapeRegex(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
