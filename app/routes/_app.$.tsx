import { ErrorCard } from "~/components/ErrorCard";
import { useT } from "~/utils/i18n";

/** Any path the route table does not know, inside the shell for signed-in users. */
export const loader = () => {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
};

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  const t = useT();
  return <ErrorCard title={t("404 Page Not Found")} message={t("Did you forget to add the page to the router?")} />;
}
