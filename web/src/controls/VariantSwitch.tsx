// Which side of an experiment the stepping views run: the kernel before the
// patch, after it, or another variant. Choosing one restarts the stepped
// engine on that variant (same seed and parameters) at once.
import { useId, useState } from 'react';
import type { VariantInfo } from '../engine/pkg/reclaim_core';

export interface VariantSwitchProps {
  variants: readonly VariantInfo[];
  /** The variant running now. */
  selected: string;
  disabled: boolean;
  onSelect(variant: string): void;
}

/** What a variant is to the patch: the kernel before it, with it, or another one shown for comparison. */
export function roleOf(variant: string): string {
  return variant === 'before' ? 'Before the patch:' : variant === 'after' ? 'With the patch:' : 'For comparison:';
}

export function VariantSwitch({ variants, selected, disabled, onSelect }: VariantSwitchProps) {
  const id = useId();
  // The choice shows at once, before the engine has restarted on it.
  const [asked, setAsked] = useState<{ variant: string; over: string } | null>(null);
  const shown = asked && asked.over === selected ? asked.variant : selected;
  const current = variants.find((v) => v.name === shown);
  const choose = (variant: string) => {
    setAsked({ variant, over: selected });
    onSelect(variant);
  };
  return (
    <div className="card variant-bar">
      <span className="variant-caption" id={`${id}-label`}>
        Variant
      </span>
      <div
        className="segmented variant-switch"
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-about`}
      >
        {variants.map((v) => (
          <label key={v.name} className={v.name === shown ? 'checked' : undefined} title={v.description}>
            <input
              type="radio"
              name={`${id}-variant`}
              value={v.name}
              checked={v.name === shown}
              disabled={disabled}
              onChange={() => choose(v.name)}
            />
            {v.name}
          </label>
        ))}
      </div>
      <p className="variant-about" id={`${id}-about`}>
        {current ? (
          <>
            <strong>{roleOf(current.name)}</strong> {current.description}
          </>
        ) : (
          `"${shown}" is not a variant of this experiment`
        )}
      </p>
    </div>
  );
}
