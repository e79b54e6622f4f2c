import { useRouteLoaderData } from "@remix-run/react";
import type { ResumedForm } from "~/schemas/resume";

/**
 * What was typed into field `name` of a form posted after the session ended, on the page it was
 * posted from, right after the sign-in (the root loader hands it over once): the field shows it
 * again instead of its default. Read from the root's data by id (importing root would be a cycle).
 */
export function useResumedValue(name: string): string | undefined {
  const data = useRouteLoaderData("root") as { resume?: ResumedForm | null } | undefined;
  return data?.resume?.fields[name];
}
