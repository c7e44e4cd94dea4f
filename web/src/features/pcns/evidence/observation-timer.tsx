import { useId, useState } from 'react';
import { CircleCheck, Clock, Eye } from 'lucide-react';
import { Button } from '../../../lib/button.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { formatClockTime, type ClockFormat } from './evidence-format.ts';
import { resolveTypedFirstSighting, toTypedTime, type ObservationCarPark } from './observation-rules.ts';
import { useObservationTimer } from './use-observation-timer.ts';
import './evidence.css';

export type ObservationPatch = { observedAt?: string; stayApplies?: boolean };

export type ObservationTimerProps = {
  /** The draft's first sighting (ISO), null until recorded. */
  observedAt: string | null;
  /** The draft's toggle; null follows the car park's stayAppliesByDefault. */
  stayApplies: boolean | null;
  /** The chosen car park; null before one is chosen (no stay, no timer). */
  carPark: ObservationCarPark | null;
  /** Save into the draft: only the fields that changed. */
  onChange: (patch: ObservationPatch) => void;
  /** False on the review step: the timer and explanation only, no controls. */
  showControls?: boolean;
  now?: () => number;
  format?: ClockFormat;
};

/**
 * The first sighting, the stay toggle and, while a stay applies, a running
 * timer with the time the notice may be issued. The seconds are not announced (a live region
 * that changes every second drowns a screen reader); only the phase is, when it changes.
 */
export function ObservationTimer({
  observedAt,
  stayApplies,
  carPark,
  onChange,
  showControls = true,
  now = Date.now,
  format,
}: ObservationTimerProps) {
  const headingId = useId();
  const hintId = useId();
  const state = useObservationTimer({ observedAt, stayApplies }, carPark, { now, format });
  const [typedTime, setTypedTime] = useState(() => toTypedTime(observedAt));
  const [typedProblem, setTypedProblem] = useState<string | null>(null);

  function recordNow() {
    const instant = new Date(now()).toISOString();
    setTypedTime(toTypedTime(instant));
    setTypedProblem(null);
    onChange({ observedAt: instant });
  }

  function recordTypedTime() {
    const resolved = resolveTypedFirstSighting(typedTime, now());
    if ('problem' in resolved) {
      setTypedProblem(resolved.problem);
      return;
    }
    setTypedProblem(null);
    onChange({ observedAt: resolved.observedAt });
  }

  const isWaiting = state.phase === 'waiting';
  // The step's main action only while a stay waits on it; otherwise a quiet option.
  const recordNowButton = (
    <Button variant={state.stayApplies && !observedAt ? 'primary' : 'secondary'} onPress={recordNow}>
      <Eye aria-hidden="true" size={20} />
      {observedAt ? 'Vehicle first seen now (restart)' : 'Vehicle first seen'}
    </Button>
  );
  // Not yet recorded, it is asked first, right under the switch, so a phone shows it with no
  // scrolling; once recorded, the restart waits below the running clock.
  const asksFirst = showControls && !observedAt;
  return (
    <section className={`observation observation--${state.phase}`} aria-labelledby={headingId}>
      <h3 id={headingId} className="observation__title">
        Observation
      </h3>

      {showControls && carPark ? (
        <label className="switch">
          {/* A native checkbox announced as a switch: on or off, toggled by Space. */}
          <input
            type="checkbox"
            role="switch"
            className="switch__input"
            checked={state.stayApplies}
            onChange={(event) => onChange({ stayApplies: event.target.checked })}
            aria-describedby={hintId}
          />
          <span className="switch__track" aria-hidden="true">
            <span className="switch__thumb" />
          </span>
          <span className="switch__label">A stay applies</span>
        </label>
      ) : null}
      {showControls && carPark ? (
        <p id={hintId} className="observation__hint muted">
          {`This car park's setting: ${carPark.stayAppliesByDefault ? 'a stay applies' : 'no stay applies'}${stayApplies !== null && stayApplies !== carPark.stayAppliesByDefault ? '; you changed it for this notice.' : '.'}`}
        </p>
      ) : null}
      {asksFirst ? recordNowButton : null}

      {observedAt ? (
        <div className="observation__clock">
          <Clock aria-hidden="true" size={20} />
          <div>
            {/* role=timer is never announced by itself; the phase below is. */}
            <p role="timer" className="observation__elapsed">
              {state.elapsedText}
            </p>
            <p className="muted">{`First seen at ${formatClockTime(observedAt, state.nowMs, format)}`}</p>
            {isWaiting && state.remainingText ? (
              <p role="timer" className="observation__remaining">
                {`${state.remainingText} to go`}
              </p>
            ) : null}
          </div>
        </div>
      ) : (
        <p className="muted">Vehicle first seen: not recorded yet.</p>
      )}

      <p className={`observation__explanation${isWaiting ? ' observation__explanation--waiting' : ''}`}>
        {state.phase === 'can-issue' ? <CircleCheck aria-hidden="true" size={18} className="status-icon--success" /> : null}
        <span>{state.explanation}</span>
      </p>
      {/* The one live region: its text changes with the phase, not with the running time. */}
      <p role="status" className="visually-hidden">
        {state.announcement}
      </p>

      {showControls ? (
        <div className="observation__controls">
          {asksFirst ? null : recordNowButton}
          <div className="observation__typed">
            <TextField
              label="Or the time it was first seen"
              description="Earlier today, on this phone's clock; never in the future."
              type="time"
              value={typedTime}
              onChange={(value) => {
                setTypedTime(value);
                setTypedProblem(null);
              }}
              errorMessage={typedProblem}
            />
            <Button variant="secondary" onPress={recordTypedTime} isDisabled={typedTime === ''}>
              Use this time
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
