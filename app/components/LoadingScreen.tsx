import { Center } from "#mantine/components/Center/Center";
import { Loader } from "#mantine/components/Loader/Loader";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { useT } from "~/utils/i18n";

/** Full-screen spinner while the next screen's data loads (client-side navigation only). */
export function LoadingScreen({ text = "Loading..." }: { text?: string }) {
  const t = useT();
  return (
    <Center
      pos="fixed"
      inset={0}
      style={{ zIndex: 1000, background: "rgba(255,255,255,0.75)" }}
      role="status"
      aria-live="polite"
    >
      <Stack align="center" gap="xs">
        <Loader />
        <Text>{t(text)}</Text>
      </Stack>
    </Center>
  );
}
