import { useNavigate, useSubmit } from "@remix-run/react";
import type { AnchorHTMLAttributes, FormEvent, FormHTMLAttributes, MouseEvent } from "react";

/**
 * A list's links and forms (a card's view, edit, delete, email) are plain elements marked
 * `data-in-page`; the shell handles their clicks and submits once for the whole screen
 * (useInPageNavigation) as Remix's <Link preventScrollReset> and <Form preventScrollReset> would.
 * Each of those runs a dozen hooks when it renders, and a page of estimates has 120 of them: a
 * tenth of the page's server time (docs/decisions/0025). Without JavaScript they are an ordinary
 * link and form.
 */
export const IN_PAGE = "data-in-page";

export function InPageLink({ to, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  return <a href={to} data-in-page="" {...props} />;
}

/** A post to `action`: the screen's own, from `useFormAction()` once per page (what `<Form>` computes for each). */
export function InPageForm(props: FormHTMLAttributes<HTMLFormElement> & { action: string }) {
  return <form method="post" data-in-page="" {...props} />;
}

const modified = (event: MouseEvent) => event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;

/** The click and submit handlers for the element that holds a screen's in-page links and forms. */
export function useInPageNavigation() {
  const navigate = useNavigate();
  const submit = useSubmit();
  return {
    onClick(event: MouseEvent<HTMLElement>) {
      if (event.defaultPrevented || modified(event)) return;
      const link = event.target instanceof Element ? event.target.closest(`a[${IN_PAGE}]`) : null;
      if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link) || (link.target && link.target !== "_self")) return;
      event.preventDefault();
      const url = new URL(link.href);
      const to = url.pathname + url.search + url.hash;
      // As <Link>: a link to the page already shown replaces it in the history.
      navigate(to, { preventScrollReset: true, replace: to === window.location.pathname + window.location.search + window.location.hash });
    },
    onSubmit(event: FormEvent<HTMLElement>) {
      const form = event.target;
      if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !form.hasAttribute(IN_PAGE)) return;
      event.preventDefault();
      // SubmitEvent's `submitter` (absent from an older browser's event: the form submits itself).
      const submitter = "submitter" in event.nativeEvent ? event.nativeEvent.submitter : null;
      submit(submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : form, { preventScrollReset: true });
    },
  };
}
