import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { cx } from '../lib/cx';
import { Spinner } from './Spinner';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'tertiary' | 'action' | 'action-gradient';
export type ButtonSize = 'xs' | 'sm' | 'md' | 'lg';

export interface ButtonStyleProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Stretch to the full width of the container. */
  block?: boolean;
  iconStart?: ReactNode;
  iconEnd?: ReactNode;
}

export function buttonClassName({
  variant = 'primary',
  size = 'md',
  block = false,
  className,
}: Pick<ButtonStyleProps, 'variant' | 'size' | 'block'> & {
  className?: string | undefined;
}): string {
  return cx(styles.button, styles[variant], styles[size], block && styles.block, className);
}

function Content({
  iconStart,
  iconEnd,
  children,
}: Pick<ButtonStyleProps, 'iconStart' | 'iconEnd'> & { children?: ReactNode }) {
  return (
    <>
      {iconStart ? <span className={styles.icon}>{iconStart}</span> : null}
      {children !== undefined && children !== null ? (
        <span className={styles.label}>{children}</span>
      ) : null}
      {iconEnd ? <span className={styles.icon}>{iconEnd}</span> : null}
    </>
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonStyleProps {
  /** Shows a spinner, sets aria-busy and disables the button. */
  loading?: boolean;
}

export function Button({
  variant,
  size,
  block,
  iconStart,
  iconEnd,
  loading = false,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClassName({ variant, size, block, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      <Content iconStart={loading ? <Spinner size="sm" /> : iconStart} iconEnd={iconEnd}>
        {children}
      </Content>
    </button>
  );
}

/** A router link that looks like a button. */
export function ButtonLink({
  variant,
  size,
  block,
  iconStart,
  iconEnd,
  className,
  children,
  ...rest
}: LinkProps & ButtonStyleProps) {
  return (
    <Link className={buttonClassName({ variant, size, block, className })} {...rest}>
      <Content iconStart={iconStart} iconEnd={iconEnd}>
        {children}
      </Content>
    </Link>
  );
}

/** An external link that looks like a button; opens in a new tab. */
export function ButtonAnchor({
  variant,
  size,
  block,
  iconStart,
  iconEnd,
  className,
  children,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & ButtonStyleProps) {
  return (
    <a
      className={buttonClassName({ variant, size, block, className })}
      target="_blank"
      rel="noopener noreferrer"
      {...rest}
    >
      <Content iconStart={iconStart} iconEnd={iconEnd}>
        {children}
      </Content>
    </a>
  );
}
