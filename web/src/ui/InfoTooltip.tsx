import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cx } from '../lib/cx';
import { InfoIcon } from './icons';
import styles from './InfoTooltip.module.css';

export interface InfoTooltipProps {
  /** The accessible name of the trigger, e.g. "About usernames". */
  label: string;
  /** The tooltip text. */
  children: ReactNode;
  /** Lets the described field point at the text too (aria-describedby). */
  id?: string;
}

/**
 * A small "i" button with a tooltip that shows on hover and keyboard focus and hides on Escape.
 * The text stays in the DOM so that fields can reference it with aria-describedby.
 */
export function InfoTooltip({ label, children, id }: InfoTooltipProps) {
  const generatedId = useId();
  const tooltipId = id ?? generatedId;
  const [dismissed, setDismissed] = useState(false);
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    if (event.key !== 'Escape' || dismissed) return;
    // Close the tooltip, not the dialog around it.
    event.stopPropagation();
    setDismissed(true);
  };
  return (
    <span
      className={cx(styles.wrapper, dismissed && styles.dismissed)}
      onKeyDown={onKeyDown}
      onMouseLeave={() => setDismissed(false)}
      onBlur={() => setDismissed(false)}
    >
      <button
        type="button"
        className={styles.trigger}
        aria-label={label}
        aria-describedby={tooltipId}
      >
        <InfoIcon size={16} />
      </button>
      <span id={tooltipId} role="tooltip" className={styles.tooltip}>
        {children}
      </span>
    </span>
  );
}
