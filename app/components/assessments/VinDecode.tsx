import { Alert } from "#mantine/components/Alert/Alert";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Text } from "#mantine/components/Text/Text";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { disagrees, normalizeVin, vehicleLabel, VIN_PATTERN, VIN_TEXT, vinWarning, type VinDecode as Decode } from "~/schemas/vin";
import { useT } from "~/utils/i18n";

const FIELDS = { year: "vehicleYear", make: "vehicleMake", model: "vehicleModel" } as const;

/** An uncontrolled field of the form, set as if typed (so the form and its draft see the change). */
function setField(form: HTMLFormElement, name: string, value: string) {
  const input = form.elements.namedItem(name);
  if (!(input instanceof HTMLInputElement)) return;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

const typedIn = (form: HTMLFormElement) => {
  const value = (name: string) => {
    const input = form.elements.namedItem(name);
    return input instanceof HTMLInputElement ? input.value.trim() : "";
  };
  return { vehicleYear: value(FIELDS.year), vehicleMake: value(FIELDS.make), vehicleModel: value(FIELDS.model) };
};

/**
 * Wraps the VIN field: a complete VIN typed or pasted is decoded by the server (GET /api/vin), its
 * vehicle fills the year, make and model left empty (never what the user typed: for those it offers
 * to apply), and its warnings show. Without JavaScript the server does the same when the form is sent.
 */
export function VinDecode({ children }: { children: ReactNode }) {
  const t = useT();
  const [decode, setDecode] = useState<Decode | null>(null);
  const [typed, setTyped] = useState<{ vehicleMake: string; vehicleModel: string }>({ vehicleMake: "", vehicleModel: "" });
  const [filled, setFilled] = useState(false);
  const asked = useRef("");
  const box = useRef<HTMLDivElement>(null);

  const form = () => box.current?.closest("form") ?? null;

  async function onInput(event: FormEvent<HTMLDivElement>) {
    const target = event.target;
    if (!(target instanceof HTMLInputElement) || target.name !== "vin") return;
    const vin = normalizeVin(target.value);
    if (!VIN_PATTERN.test(vin)) {
      asked.current = "";
      setDecode(null);
      return;
    }
    if (vin === asked.current) return;
    asked.current = vin;
    const response = await fetch(`/api/vin/${vin}`, { headers: { Accept: "application/json" } }).catch(() => null);
    // Spec §8: the session ended while the form was open. Sent as a plain post, it takes the server's
    // way: the typed fields are kept, the sign-in page shows the logged-out toast, and after it the
    // form is back as it was (docs/decisions/0050), where a jump to the sign-in would lose it.
    if (response?.status === 401) form()?.submit();
    if (!response?.ok || asked.current !== vin) return;
    const result = (await response.json()) as Decode;
    const el = form();
    if (!el) return;
    const now = typedIn(el);
    const v = result.vehicle;
    let any = false;
    if (v) {
      const fill = (name: string, current: string, value: string | number | null) => {
        if (current !== "" || value === null || value === "") return;
        setField(el, name, String(value));
        any = true;
      };
      fill(FIELDS.year, now.vehicleYear, v.year);
      fill(FIELDS.make, now.vehicleMake, v.make);
      fill(FIELDS.model, now.vehicleModel, v.model);
    }
    setFilled(any);
    setTyped({ vehicleMake: now.vehicleMake, vehicleModel: now.vehicleModel });
    setDecode(result);
  }

  function apply() {
    const el = form();
    const v = decode?.vehicle;
    if (!el || !v) return;
    if (v.year !== null) setField(el, FIELDS.year, String(v.year));
    if (v.make) setField(el, FIELDS.make, v.make);
    if (v.model) setField(el, FIELDS.model, v.model);
    setTyped({ vehicleMake: v.make ?? "", vehicleModel: v.model ?? "" });
  }

  const warning = decode && vinWarning(decode, typed);
  const vehicle = decode?.vehicle ? vehicleLabel(decode.vehicle) : "";
  return (
    <div ref={box} onInput={onInput}>
      {children}
      {decode && (
        <div data-testid="vin-decode" aria-live="polite">
          {decode.vehicle ? (
            <Group gap="xs" mt={4}>
              <Text size="sm">
                {t(VIN_TEXT.decoded)} <strong>{vehicle}</strong>
                {filled && ` · ${t(VIN_TEXT.filled)}`}
              </Text>
              {disagrees(decode, typed) && (
                <Button size="compact-sm" variant="light" onClick={apply}>
                  {t(VIN_TEXT.apply)}
                </Button>
              )}
            </Group>
          ) : (
            <Text size="sm" mt={4} c="dimmed">
              {t(VIN_TEXT.unknown)}
            </Text>
          )}
          {warning && (
            <Alert color="yellow" mt="xs" data-testid="vin-warning">
              {t(warning, { vehicle })}
            </Alert>
          )}
        </div>
      )}
    </div>
  );
}
