import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fieldErrors } from '@parkpatrol/shared';
import { toApiError, type ApiError } from './api-client.ts';

export type FieldErrors = Record<string, string>;

/**
 * A zod safeParse result, or field messages a form worked out itself, or null when there is
 * nothing to send (an edit that changed nothing).
 */
export type Parsed<I> =
  | { success: true; data: I }
  | { success: false; error: Parameters<typeof fieldErrors>[0] }
  | { success: false; fieldErrors: FieldErrors }
  | null;

/**
 * The one way a form submits: check the values with the shared schema (messages beside the
 * fields, focus on the first field in error), send once (a second press while sending does
 * nothing), and on failure show the server's per-field messages beside the fields and its
 * message above the form, once: not again when a field already says it. Messages forgive: each
 * goes once its field is valid, before the next press. The check must therefore not act (it also
 * runs as fields are edited). What happens on success is the form's own business.
 */
export function useFormSubmit(options: {
  /** The message when the server gives none, or none arrives (docs/product.md, Errors and fallback messages). */
  fallbackMessage: string;
  /** Renames or rewords field messages for this form (the server's newPassword is its password). */
  mapErrors?: (errors: FieldErrors) => FieldErrors;
  /** Told of every failure after it is shown, for what the form does besides (a dead link). */
  onError?: (error: ApiError) => void;
}) {
  const [isBusy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  // Bumped to move the focus to the first field in error once its message is drawn.
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);
  const mapErrors = options.mapErrors ?? ((found: FieldErrors) => found);
  // Forgiving errors: what the form checks now, the fields edited since, and which messages came
  // from the server (the schema cannot say those are fixed; editing their field does).
  const latestParse = useRef<(() => Parsed<unknown>) | null>(null);
  const edited = useRef(new Set<string>());
  const fromServer = useRef(new Set<string>());
  const [edits, setEdits] = useState(0);
  const mapErrorsRef = useRef(mapErrors);
  mapErrorsRef.current = mapErrors;

  useEffect(() => {
    const form = formRef.current;
    if (!form || Object.keys(errors).length === 0) return undefined;
    const onEdit = (event: Event) => {
      const name = (event.target as { name?: unknown } | null)?.name;
      if (typeof name !== 'string' || !name) return;
      edited.current.add(name);
      // After the field's own change has rendered, so the check below reads the new value.
      setTimeout(() => setEdits((n) => n + 1), 0);
    };
    form.addEventListener('input', onEdit);
    form.addEventListener('change', onEdit);
    return () => {
      form.removeEventListener('input', onEdit);
      form.removeEventListener('change', onEdit);
    };
  }, [errors]);

  // After an edit, each message shown is checked again: it goes once its field is valid (a
  // server's once its own field changed), it changes when the problem did, and no new message
  // appears while the officer is still typing.
  useEffect(() => {
    if (edited.current.size === 0) return;
    const changed = new Set(edited.current);
    edited.current.clear();
    const parsed = latestParse.current?.();
    const map = mapErrorsRef.current;
    const now = parsed && !parsed.success ? map('fieldErrors' in parsed ? parsed.fieldErrors : fieldErrors(parsed.error)) : {};
    setErrors((shown) => {
      let next: FieldErrors | null = null;
      for (const [field, message] of Object.entries(shown)) {
        if (fromServer.current.has(field) && !changed.has(field)) continue;
        const still = now[field];
        if (still === message) continue;
        next ??= { ...shown };
        if (still) next[field] = still;
        else {
          delete next[field];
          fromServer.current.delete(field);
        }
      }
      return next ?? shown;
    });
  }, [edits]);

  function handle<I>(parse: () => Parsed<I>, send: (input: I) => Promise<void>) {
    latestParse.current = parse;
    return async (event: FormEvent<HTMLFormElement>): Promise<void> => {
      event.preventDefault();
      if (inFlight.current) return;
      formRef.current = event.currentTarget;
      // A date field holding text that is not a date (lib/date-field.tsx) says so beside itself;
      // sent, its text would be read as no date at all.
      if (event.currentTarget.querySelector('[data-not-a-date]')) {
        setFocusRequest((n) => n + 1);
        return;
      }
      setFormError(null);
      const parsed = parse();
      if (!parsed) return;
      if (!parsed.success) {
        fromServer.current.clear();
        setErrors(mapErrors('fieldErrors' in parsed ? parsed.fieldErrors : fieldErrors(parsed.error)));
        setFocusRequest((n) => n + 1);
        return;
      }
      setErrors({});
      fromServer.current.clear();
      inFlight.current = true;
      setBusy(true);
      try {
        await send(parsed.data);
      } catch (error) {
        const apiError = toApiError(error, options.fallbackMessage);
        const fields = mapErrors(apiError.fields);
        fromServer.current = new Set(Object.keys(fields));
        setErrors(fields);
        // Said once: a message already beside its field is not repeated above the form.
        setFormError(Object.values(fields).includes(apiError.message) ? null : apiError.message);
        if (Object.keys(fields).length > 0) setFocusRequest((n) => n + 1);
        options.onError?.(apiError);
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    };
  }

  return { handle, isBusy, errors, formError };
}

/** A mapErrors for a form whose field has another name on the server (newPassword -> password). */
export function renameField(serverName: string, formName: string): (errors: FieldErrors) => FieldErrors {
  return ({ [serverName]: message, ...rest }) => (message ? { ...rest, [formName]: message } : rest);
}
