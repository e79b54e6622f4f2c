import { Text, Title } from "@mantine/core";

export default function Dashboard() {
  return (
    <>
      <Title order={1}>Dashboard</Title>
      <Text c="dimmed">AI damage assessment for dealers, body shops and repair vendors.</Text>
    </>
  );
}
