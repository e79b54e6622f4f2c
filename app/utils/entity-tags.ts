/**
 * An assessment's entity tag (RFC 9110 §8.8.3): strong, made from its revision (every write moves
 * the revision on, docs/decisions/0027), so equal tags mean the same stored version.
 */
export const etagOf = (revision: number) => `"r${revision}"`;

/**
 * The revisions an `If-Match` header accepts: undefined when there is no condition (no header, or
 * `*`: any current version), else the revisions its strong tags name — possibly none (a weak tag,
 * another server's tag or a malformed value matches no version, RFC 9110 §13.1.1: 412).
 */
export function ifMatchRevisions(header: string | null): number[] | undefined {
  if (header === null || header.trim() === "" || header.trim() === "*") return undefined;
  const revisions: number[] = [];
  for (const tag of header.split(",")) {
    const match = /^\s*"r(0|[1-9]\d{0,14})"\s*$/.exec(tag);
    if (match) revisions.push(Number(match[1]));
  }
  return revisions;
}
