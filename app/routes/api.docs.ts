import { docsPage } from "~/openapi/docs-page.server";

/** The description as a page: server rendered, no script (no page's JavaScript budget changes). */
export const loader = () =>
  new Response(docsPage(), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
  });
