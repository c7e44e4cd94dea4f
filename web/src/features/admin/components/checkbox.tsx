import type { ReactNode } from 'react';
import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from 'react-aria-components';
import { Check, Minus } from 'lucide-react';

/** A react-aria checkbox with a visible box: checked, unchecked or indeterminate (a dash). */
export function Checkbox({
  children,
  className,
  ...props
}: Omit<AriaCheckboxProps, 'children' | 'className'> & { children?: ReactNode; className?: string }) {
  return (
    <AriaCheckbox {...props} className={['checkbox', className].filter(Boolean).join(' ')}>
      {({ isSelected, isIndeterminate }) => (
        <>
          <span className="checkbox__box" aria-hidden="true">
            {isIndeterminate ? <Minus size={16} strokeWidth={3} /> : isSelected ? <Check size={16} strokeWidth={3} /> : null}
          </span>
          {children}
        </>
      )}
    </AriaCheckbox>
  );
}
