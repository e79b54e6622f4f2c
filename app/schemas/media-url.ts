/**
 * An app media URL as documents store it: `/media/<upload id>`, nothing else (no scheme, host,
 * query or other path). Screens link and embed only such URLs; anything else stored is not shown.
 */
export const MEDIA_URL_PATTERN = /^\/media\/([0-9a-f]{24})$/;

/** The upload id of an app media URL; null for anything else (`javascript:`, another site, a list…). */
export const mediaIdOf = (url: unknown) => (typeof url === "string" ? (MEDIA_URL_PATTERN.exec(url)?.[1] ?? null) : null);
