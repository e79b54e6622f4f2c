import { Container, Text, Title } from "@mantine/core";

export default function Index() {
  return (
    <Container py="xl">
      <Title order={1}>DamageIQ</Title>
      <Text c="dimmed">AI damage assessment for dealers, body shops and repair vendors.</Text>
    </Container>
  );
}
