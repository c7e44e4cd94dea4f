import type { ReactNode } from 'react';
import { Button as AriaButton, Link as AriaLink, type ButtonProps as AriaButtonProps, type LinkProps as AriaLinkProps } from 'react-aria-components';

export type ButtonVariant = 'primary' | 'secondary' | 'text' | 'icon';

function classFor(variant: ButtonVariant, extra?: string) {
  return ['button', `button--${variant}`, extra].filter(Boolean).join(' ');
}

export type ButtonProps = Omit<AriaButtonProps, 'className' | 'children'> & {
  variant?: ButtonVariant;
  className?: string;
  children?: ReactNode;
};

export function Button({ variant = 'primary', className, ...props }: ButtonProps) {
  return <AriaButton {...props} className={classFor(variant, className)} />;
}

export type LinkButtonProps = Omit<AriaLinkProps, 'className' | 'children'> & {
  variant?: ButtonVariant;
  className?: string;
  children?: ReactNode;
};

/** A link that looks like a button: navigation stays a link for assistive technology. */
export function LinkButton({ variant = 'primary', className, ...props }: LinkButtonProps) {
  return <AriaLink {...props} className={classFor(variant, className)} />;
}
