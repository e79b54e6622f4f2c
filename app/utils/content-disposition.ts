/**
 * A Content-Disposition header naming a download (RFC 6266): `filename` with an ASCII stand-in for
 * every other character (old clients read only that), and `filename*` with the name as it is
 * (UTF-8, percent-encoded) for the rest.
 */
export function contentDisposition(name: string, kind: "attachment" | "inline" = "attachment") {
  const ascii =
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x20-\x7e]|["\\%]/g, "_")
      .trim() || "download";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
