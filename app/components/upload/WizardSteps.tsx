import { useT } from "~/utils/i18n";
import classes from "../wizard-stepper.module.css";

/**
 * Where the wizard is among its steps: an ordered list, the current step marked for assistive
 * technology (`aria-current="step"`). Plain HTML and CSS: Mantine's Stepper brought its Checkbox
 * family along (about 3 KB of the upload screen's first load) for a tick.
 */
export function WizardSteps({ steps, active }: { steps: readonly string[]; active: number }) {
  const t = useT();
  return (
    <ol className={classes.steps} aria-label={t("Assessment steps")} data-testid="wizard-steps">
      {steps.map((label, i) => (
        <li key={label} className={classes.step} data-state={i < active ? "done" : i === active ? "current" : "next"} aria-current={i === active ? "step" : undefined}>
          <span className={classes.icon} aria-hidden="true">
            {i < active ? "✓" : i + 1}
          </span>
          <span className={classes.label}>{t(label)}</span>
        </li>
      ))}
    </ol>
  );
}
