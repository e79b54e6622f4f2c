import { Card, Center, Group, Text, Title } from "@mantine/core";

/** The centred card used by the not-found page and the shared error boundary. */
export function ErrorCard({ title, message }: { title: string; message: string }) {
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
      </Card>
    </Center>
  );
}
