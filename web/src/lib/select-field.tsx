import type { Key, Ref } from 'react';
import { ChevronDown } from 'lucide-react';
import {
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
  Text,
} from 'react-aria-components';

export type SelectOption = { id: string; label: string };

export type SelectFieldProps = {
  label: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  placeholder?: string;
  description?: string;
  errorMessage?: string | null;
  isDisabled?: boolean;
  isRequired?: boolean;
  triggerRef?: Ref<HTMLButtonElement>;
  className?: string;
  name?: string;
};

export function SelectField({ label, options, value, onChange, placeholder, description, errorMessage, isDisabled, isRequired, triggerRef, className, name }: SelectFieldProps) {
  return (
    <Select
      className={['field', className].filter(Boolean).join(' ')}
      value={value}
      onChange={(key: Key | null) => onChange(key === null ? null : String(key))}
      placeholder={placeholder}
      isDisabled={isDisabled}
      isRequired={isRequired}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
      name={name}
    >
      <Label className="field__label">{label}</Label>
      <Button className="field__input select__trigger" ref={triggerRef}>
        <SelectValue className="select__value" />
        <ChevronDown aria-hidden="true" size={18} />
      </Button>
      {description ? <Text slot="description" className="field__description">{description}</Text> : null}
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Popover className="select__popover">
        <ListBox className="select__list" items={options}>
          {(option) => (
            <ListBoxItem id={option.id} className="select__option" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
