import { MantineProvider } from "#mantine/core/MantineProvider/MantineProvider";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RequestIdContext } from "~/utils/request-id";
import { RouteErrorCard } from "./ErrorCard";

const render = (error: unknown, requestId?: string) =>
  renderToStaticMarkup(
    <MantineProvider>
      <RequestIdContext.Provider value={requestId}>
        <RouteErrorCard error={error} />
      </RequestIdContext.Provider>
    </MantineProvider>,
  );

describe("the error page", () => {
  it("names the request's id for an unexpected error, so a report leads to its log lines", () => {
    const page = render(new Error("boom"), "3f2a-req");
    expect(page).toContain("Something went wrong");
    expect(page).toContain("Request ID: 3f2a-req (quote it when you report this)");
    expect(page).toContain('data-request-id="3f2a-req"');
    expect(page).not.toContain("boom");
  });

  it("names none for a page not found, which is no fault to report", () => {
    const page = render({ status: 404, statusText: "Not Found", internal: true, data: "" }, "3f2a-req");
    expect(page).toContain("404 Page Not Found");
    expect(page).not.toContain("3f2a-req");
  });
});
