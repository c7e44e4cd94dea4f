import { useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { registrationProblem, VISITOR_TEXTS, type VisitorPermitGranted } from '@parkpatrol/shared';
import { apiClient, toApiError } from '../../lib/api-client.ts';
import { TextField } from '../../lib/text-field.tsx';
import './visit.css';

const VISIT_FAILED = 'The registration could not be sent. Check your signal and try again.';

/**
 * The visitor page, `/visit/{siteCode}` (decision 0041): a tablet at reception or a QR code on a
 * sign. Plain HTML and one small request each way, so it works on one bar of signal; no sign-in,
 * no staff session is sent or refreshed.
 */
export function VisitScreen() {
  const { siteCode = '' } = useParams();
  const [carParkName, setCarParkName] = useState<string | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const [registration, setRegistration] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [granted, setGranted] = useState<VisitorPermitGranted | null>(null);
  const [isBusy, setBusy] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    apiClient
      .call('GET /public/visit/:siteCode', {
        params: { siteCode },
        token: null,
        skipRefresh: true,
        fallbackMessage: VISITOR_TEXTS.pageNotFound,
      })
      .then(
        (info) => isCurrent && setCarParkName(info.carParkName),
        (error: unknown) => isCurrent && setPageError(toApiError(error, VISITOR_TEXTS.pageNotFound).message),
      );
    return () => {
      isCurrent = false;
    };
  }, [siteCode]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy) return;
    const input = { vehicleRegistration: registration, visitorCode: code };
    // Checked here without the schemas (a third of the page's bytes again); the server checks all.
    const problems = Object.fromEntries(
      Object.entries({
        vehicleRegistration: registrationProblem(registration),
        visitorCode: code.trim() === '' ? VISITOR_TEXTS.codeRequired : null,
      }).filter((entry): entry is [string, string] => entry[1] !== null),
    );
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      return;
    }
    setErrors({});
    setFormError(null);
    setBusy(true);
    try {
      setGranted(
        await apiClient.call('POST /public/visit/:siteCode', {
          params: { siteCode },
          json: input,
          token: null,
          skipRefresh: true,
          fallbackMessage: VISIT_FAILED,
        }),
      );
    } catch (error) {
      const apiError = toApiError(error, VISIT_FAILED);
      setErrors(apiError.fields);
      setFormError(Object.values(apiError.fields).includes(apiError.message) ? null : apiError.message);
    } finally {
      setBusy(false);
    }
  }

  if (pageError) {
    return (
      <main className="visit">
        <h1>Visitor parking</h1>
        <p role="alert">{pageError}</p>
      </main>
    );
  }
  if (granted) {
    return (
      <main className="visit">
        <h1>You are registered</h1>
        <p role="status" className="visit__granted">
          {granted.message}
        </p>
        <p>{granted.carParkName}</p>
        <button
          type="button"
          className="button"
          onClick={() => {
            setGranted(null);
            setRegistration('');
          }}
        >
          Register another vehicle
        </button>
      </main>
    );
  }
  return (
    <main className="visit">
      <h1>Visitor parking{carParkName ? `: ${carParkName}` : ''}</h1>
      <p>Enter your registration and the visitor code shown here to park until the end of today.</p>
      <form className="form-stack" onSubmit={(event) => void handleSubmit(event)} noValidate>
        {formError ? (
          <p role="alert" className="visit__error">
            {formError}
          </p>
        ) : null}
        <TextField
          label="Vehicle registration"
          description="As shown on the number plate, e.g. AB12 CDE"
          value={registration}
          onChange={(value) => setRegistration(value.toUpperCase())}
          errorMessage={errors.vehicleRegistration}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck="false"
          isRequired
        />
        <TextField
          label="Visitor code"
          value={code}
          onChange={setCode}
          errorMessage={errors.visitorCode}
          autoComplete="off"
          spellCheck="false"
          isRequired
        />
        <button type="submit" className="button" disabled={isBusy}>
          {isBusy ? 'Registering...' : 'Register'}
        </button>
      </form>
    </main>
  );
}
