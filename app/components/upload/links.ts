import type { LinksFunction } from "@remix-run/node";
import uppyCoreStyles from "@uppy/core/css/style.min.css";
import uppyDashboardStyles from "@uppy/dashboard/css/style.min.css";

/**
 * Uppy's stylesheets; spread into the `links` of every route that shows an uploader. Apart from
 * Uploader.tsx so that naming them does not put the uploader's code on a screen's first load.
 */
export const uploaderLinks: LinksFunction = () => [
  { rel: "stylesheet", href: uppyCoreStyles },
  { rel: "stylesheet", href: uppyDashboardStyles },
];
