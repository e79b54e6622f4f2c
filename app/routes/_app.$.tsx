import { ErrorCard } from "~/components/ErrorCard";

/** Any path the route table does not know, inside the shell for signed-in users. */
export const loader = () => {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
};

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorCard title="404 Page Not Found" message="Did you forget to add the page to the router?" />;
}
