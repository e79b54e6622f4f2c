import { Card } from "#mantine/components/Card/Card";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Skeleton } from "#mantine/components/Skeleton/Skeleton";
import { Stack } from "#mantine/components/Stack/Stack";
import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";

/** The responsive grid every list screen lays its cards out in. */
export function CardGrid({ children, label }: { children: ReactNode; label: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" role="list" aria-label={label}>
      {children}
    </SimpleGrid>
  );
}

/** Loading placeholders (the spec's six) in the card grid's shape. */
export function CardGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy="true" aria-label="Loading">
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} withBorder padding="lg" data-testid="card-skeleton">
          <Stack gap="sm">
            <Skeleton height={40} circle />
            <Skeleton height={14} width="70%" />
            <Skeleton height={12} width="50%" />
            <Skeleton height={12} width="85%" />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/**
 * True while a new search or page (or another of `keys`) of this list is loading and has taken
 * longer than `delayMs` (fast answers never flash the placeholders).
 */
export function useListLoading(delayMs = 200, keys: readonly string[] = ["q", "cursor", "page"]) {
  const navigation = useNavigation();
  const location = useLocation();
  const next = navigation.state === "loading" && !navigation.formMethod ? navigation.location : null;
  const loading =
    next !== null &&
    next.pathname === location.pathname &&
    keys.some(
      (k) => new URLSearchParams(next.search).get(k) !== new URLSearchParams(location.search).get(k),
    );
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!loading) return;
    const timer = setTimeout(() => setSlow(true), delayMs);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [loading, delayMs]);
  return loading && slow;
}
