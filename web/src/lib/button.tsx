import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Link } from 'react-router-dom';

export type ButtonVariant = 'primary' | 'secondary' | 'text' | 'icon';

function classFor(variant: ButtonVariant, extra?: string) {
  return ['button', `button--${variant}`, extra].filter(Boolean).join(' ');
}

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'children' | 'onClick' | 'disabled'> & {
  variant?: ButtonVariant;
  className?: string;
  children?: ReactNode;
  /** Named as react-aria names it, like the admin screens' controls; it is the native click. */
  onPress?: () => void;
  isDisabled?: boolean;
  ref?: Ref<HTMLButtonElement>;
};

/**
 * A native button: the officer's screens carry no react-aria (its core alone is about
 * 45 KB on the wire), and a <button> is already pressable by touch, mouse, Enter and Space.
 * `type` defaults to "button" so a button in a form never submits it by accident.
 */
export function Button({ variant = 'primary', className, onPress, isDisabled, type = 'button', ...props }: ButtonProps) {
  return <button {...props} type={type} disabled={isDisabled} onClick={onPress} className={classFor(variant, className)} />;
}

export type LinkButtonProps = {
  href: string;
  variant?: ButtonVariant;
  className?: string;
  children?: ReactNode;
  'aria-label'?: string;
};

/** A link that looks like a button: navigation stays a link for assistive technology. */
export function LinkButton({ href, variant = 'primary', className, ...props }: LinkButtonProps) {
  return <Link {...props} to={href} className={classFor(variant, className)} />;
}
