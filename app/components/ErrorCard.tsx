import { Card } from "#mantine/components/Card/Card";
import { Center } from "#mantine/components/Center/Center";
import { Group } from "#mantine/components/Group/Group";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { isRouteErrorResponse } from "@remix-run/react";
import { useT } from "~/utils/i18n";
import { useRequestId } from "~/utils/request-id";

/** The centred card used by the not-found page and the shared error boundary. */
export function ErrorCard({ title, message, requestId }: { title: string; message: string; requestId?: string }) {
  const t = useT();
  return (
    <Center mih="60vh" p="md">
      <Card withBorder shadow="sm" maw={480} w="100%" p="xl">
        <Group gap="sm" mb="sm" wrap="nowrap">
          <svg
            aria-hidden="true"
            width="32"
            height="32"
            viewBox="0 0 24 24"
            fill="none"
            stroke="#e03131"
            strokeWidth="2"
          >
            <circle cx="12" cy="12" r="10" />
            <line x1="12" y1="8" x2="12" y2="12" />
            <line x1="12" y1="16" x2="12.01" y2="16" />
          </svg>
          <Title order={1} size="h2">
            {title}
          </Title>
        </Group>
        <Text c="dimmed">{message}</Text>
        {requestId ? (
          <Text size="sm" c="dimmed" mt="sm" data-request-id={requestId}>
            {t("Request ID: {{id}} (quote it when you report this)", { id: requestId })}
          </Text>
        ) : null}
      </Card>
    </Center>
  );
}

/** What an error boundary shows for a thrown error: the not-found card, the status, or a generic card. */
export function RouteErrorCard({ error }: { error: unknown }) {
  const t = useT();
  // Called before any return: the id is read once, as the page hydrates.
  const requestId = useRequestId();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      return <ErrorCard title={t("404 Page Not Found")} message={t("Did you forget to add the page to the router?")} />;
    }
    const message = typeof error.data === "string" && error.data ? error.data : error.statusText;
    return <ErrorCard title={`${error.status} ${error.statusText}`} message={message} requestId={error.status >= 500 ? requestId : undefined} />;
  }
  return <ErrorCard title={t("Something went wrong")} message={t("An unexpected error occurred. Please try again.")} requestId={requestId} />;
}
