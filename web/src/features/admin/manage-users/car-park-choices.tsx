import { CheckboxGroup, Label, Text } from 'react-aria-components';
import type { CarPark } from '@parkpatrol/shared';
import { Checkbox } from '../components/checkbox.tsx';

/** Tick the car parks a user patrols; inactive sites are marked so nobody is surprised. */
export function CarParkChoices({
  carParks,
  value,
  onChange,
  label,
  isDisabled,
}: {
  carParks: CarPark[];
  value: string[];
  onChange: (ids: string[]) => void;
  label: string;
  isDisabled?: boolean;
}) {
  return (
    <CheckboxGroup className="field" value={value} onChange={onChange} isDisabled={isDisabled}>
      <Label className="field__label">{label}</Label>
      {carParks.length === 0 ? (
        <Text slot="description" className="field__description">
          There are no car parks yet.
        </Text>
      ) : (
        <div className="checkbox-list">
          {carParks.map((carPark) => (
            <Checkbox key={carPark.id} value={carPark.id}>
              {carPark.name}
              {carPark.siteCode ? <span className="muted"> ({carPark.siteCode})</span> : null}
              {carPark.isActive ? null : <span className="muted"> · inactive</span>}
            </Checkbox>
          ))}
        </div>
      )}
    </CheckboxGroup>
  );
}
