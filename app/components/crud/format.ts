// Text helpers shared by server render and browser. Dates and money in the reader's language are
// app/utils/locale-format.ts's.

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
