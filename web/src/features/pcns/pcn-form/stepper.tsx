import { WIZARD_STEPS } from '@parkpatrol/shared';

/** Progress through the four steps; the current one is marked for assistive technology. */
export function Stepper({ current }: { current: number }) {
  return (
    <ol className="stepper" aria-label="Progress">
      {WIZARD_STEPS.map((label, index) => (
        <li
          key={label}
          className={['stepper__item', index < current ? 'stepper__item--done' : ''].filter(Boolean).join(' ')}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="stepper__number" aria-hidden="true">
            {index + 1}
          </span>
          <span>{label}</span>
        </li>
      ))}
    </ol>
  );
}
