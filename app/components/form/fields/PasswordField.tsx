import { PasswordInput } from "#mantine/components/PasswordInput/PasswordInput";
import { useMounted } from "@mantine/hooks";
import { useState } from "react";
import { useField } from "remix-validated-form";
import { useT } from "~/utils/i18n";
import { focusIfInvalid, VALIDATION, type FieldBase } from "./field-base";

/**
 * Mantine's PasswordInput with its show/hide toggle in the Tab order once the page runs JavaScript
 * (before that, and on the script-less sign-in pages, it does nothing, so it takes no stop), named,
 * and working with Enter as well as Space; the input itself says when it is invalid (Mantine leaves
 * aria-invalid off it).
 */
export function PasswordField(props: FieldBase) {
  const { error, getInputProps } = useField(props.name, VALIDATION);
  // The schemas' messages are English keys (the spec's words), shown in the page's language.
  const [visible, setVisible] = useState(false);
  const hydrated = useMounted();
  const t = useT();
  return (
    <PasswordInput
      {...getInputProps({ id: props.name, ...props })}
      error={error && t(error)}
      aria-invalid={error ? true : undefined}
      {...focusIfInvalid(error)}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{
        tabIndex: hydrated ? 0 : -1,
        "aria-label": t("Show password"),
        onKeyDown: (event: React.KeyboardEvent) => {
          if (event.key !== "Enter") return;
          event.preventDefault();
          setVisible((shown) => !shown);
        },
      }}
    />
  );
}
