import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CARD_RETURN_PARAM, CARD_RETURN_VALUES, OPERATOR_LOGO_DISPLAY, type PublicCharge, type PublicOperator } from '@parkpatrol/shared';
import { Alert } from '../../lib/alert.tsx';
import { apiAssetUrl } from '../../lib/api-asset-url.ts';
import { PageHeading } from '../../lib/page-heading.tsx';
import { afterBootPress, takeBootChargeLookup } from '../../lib/boot-screen.ts';
import { TextField } from '../../lib/text-field.tsx';
import { CHARGE_LOOKUP_CHECKING, CHARGE_LOOKUP_INTRO, CHARGE_REFERENCE_HINT } from './charge-texts.ts';
import { fetchPublicOperator } from './operator-name.ts';
import './charge.css';

// A stranger's first visit, often on a poor link from a notice's QR code: the form paints with
// React and our own fields only (as sign-in does); the schema, the API client and the charge's
// view come once they are needed (scripts/bench/web-delivery.ts measures it).
const ChargeView = lazy(() => import('./charge-view.tsx'));
const loadApi = () => import('./charge-api.ts');

/** The lookup's token for this tab only: it opens one charge for 30 minutes, and goes with the tab. */
const TOKEN_KEY = 'parkpatrol-charge-token';

/** The operator's name and logo at the top: the logo a plain image in a fixed box, so nothing moves as it loads. */
function OperatorTop({ name, logoUrl }: { name: string | null; logoUrl: string | null }) {
  return (
    <p className="charge-operator">
      {logoUrl && name ? (
        <img
          className="charge-operator__logo"
          src={apiAssetUrl(logoUrl)}
          alt={name}
          width={OPERATOR_LOGO_DISPLAY.width}
          height={OPERATOR_LOGO_DISPLAY.height}
        />
      ) : null}
      {name}
    </p>
  );
}

/**
 * The motorist's page (/charge): no sign-in. They give the reference and registration from the
 * notice and see the charge: the land and the period of parking, why, the photos, what is due
 * and until when, how to pay and how to appeal.
 */
export function ChargeScreen() {
  const [params, setParams] = useSearchParams();
  // Back from the card processor's page: kept for this visit, and taken off the address so a
  // reload later does not say it again.
  const [cardReturn] = useState(() => cardReturnOf(params.get(CARD_RETURN_PARAM)));
  useEffect(() => {
    if (params.has(CARD_RETURN_PARAM)) {
      setParams(
        (now) => {
          const next = new URLSearchParams(now);
          next.delete(CARD_RETURN_PARAM);
          return next;
        },
        { replace: true },
      );
    }
  }, [params, setParams]);
  const [charge, setCharge] = useState<PublicCharge | null>(null);
  const [operator, setOperator] = useState<PublicOperator>({ name: null, logoUrl: null });
  useEffect(() => {
    let isCurrent = true;
    void fetchPublicOperator().then((found) => {
      if (isCurrent) setOperator(found);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  const [accessToken, setAccessToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [isRestoring, setRestoring] = useState(() => sessionStorage.getItem(TOKEN_KEY) !== null);
  useEffect(() => {
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (!token) return;
    loadApi()
      .then((api) => api.getCurrentCharge(token))
      .then(
        (found) => setCharge(found),
        () => sessionStorage.removeItem(TOKEN_KEY),
      )
      .finally(() => setRestoring(false));
  }, []);
  return (
    <main className="charge-page" id="main">
      <div className="charge-page__inner">
        {/* Whose charge this is, first: the charge's own creditor once it is found, else the operator's name; their logo beside it. */}
        <OperatorTop name={charge?.creditor?.name ?? operator.name} logoUrl={operator.logoUrl} />
        {charge && accessToken ? (
          <Suspense fallback={<p role="status">Loading your charge…</p>}>
            <ChargeView
              charge={charge}
              accessToken={accessToken}
              cardReturn={cardReturn}
              onReload={async () => {
                const api = await loadApi();
                setCharge(await api.getCurrentCharge(accessToken));
              }}
              onClose={() => {
                sessionStorage.removeItem(TOKEN_KEY);
                setAccessToken(null);
                setCharge(null);
              }}
            />
          </Suspense>
        ) : isRestoring ? (
          <p role="status">Loading your charge…</p>
        ) : (
          <LookupForm
            initialReference={params.get('ref') ?? ''}
            onFound={(found, token) => {
              sessionStorage.setItem(TOKEN_KEY, token);
              setAccessToken(token);
              setCharge(found);
            }}
          />
        )}
      </div>
    </main>
  );
}

function LookupForm({ initialReference, onFound }: { initialReference: string; onFound: (charge: PublicCharge, token: string) => void }) {
  const [reference, setReference] = useState(initialReference);
  const [registration, setRegistration] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<{ message: string; help: string | null } | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isChecking, setChecking] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const referenceRef = useRef<HTMLInputElement>(null);
  const registrationRef = useRef<HTMLInputElement>(null);
  // index.html painted this form before the code arrived (on a poor link, seconds before): take
  // over what was typed there, the field being typed in, and a press of Find already made.
  useLayoutEffect(
    () =>
      afterBootPress(() => {
        const boot = takeBootChargeLookup();
        if (!boot) return;
        if (boot.reference) setReference(boot.reference);
        if (boot.registration) setRegistration(boot.registration);
        if (boot.focused) (boot.focused === 'registration' ? registrationRef : referenceRef).current?.focus();
        // After the values above are rendered, so the submit reads them.
        if (boot.isSubmitted) setTimeout(() => formRef.current?.requestSubmit(), 0);
      }),
    [],
  );
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isBusy) return;
    setFormError(null);
    setBusy(true);
    let api: Awaited<ReturnType<typeof loadApi>> | null = null;
    try {
      api = await loadApi();
      const problems = api.lookupProblems({ reference, registration });
      setErrors(problems ?? {});
      if (problems) {
        requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
        return;
      }
      const found = await api.lookUpCharge(reference, registration, () => setChecking(true));
      onFound(found.charge, found.accessToken);
    } catch (error) {
      // What was typed stays in the fields: the motorist corrects it, not types it all again.
      setFormError(api ? api.lookupFailureOf(error) : { message: LOOKUP_FAILED, help: null });
    } finally {
      setBusy(false);
      setChecking(false);
    }
  };
  return (
    <>
      <PageHeading>Your parking charge</PageHeading>
      <p>{CHARGE_LOOKUP_INTRO}</p>
      <form ref={formRef} className="form-stack" onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Find your charge">
        {formError ? (
          <Alert>
            <p>{formError.message}</p>
            {formError.help ? <p>{formError.help}</p> : null}
          </Alert>
        ) : null}
        {isChecking ? <p role="status">{CHARGE_LOOKUP_CHECKING}</p> : null}
        <TextField
          label="Charge reference"
          name="reference"
          value={reference}
          onChange={(value) => {
            setReference(value);
            if (errors.reference) setErrors(({ reference: _gone, ...rest }) => rest);
          }}
          errorMessage={errors.reference}
          inputRef={referenceRef}
          description={CHARGE_REFERENCE_HINT}
          autoCapitalize="characters"
          autoComplete="off"
          isRequired
        />
        <TextField
          label="Vehicle registration"
          name="registration"
          value={registration}
          onChange={(value) => {
            setRegistration(value);
            if (errors.registration) setErrors(({ registration: _gone, ...rest }) => rest);
          }}
          errorMessage={errors.registration}
          inputRef={registrationRef}
          autoCapitalize="characters"
          autoComplete="off"
          isRequired
        />
        {/* The native button lib/button.tsx renders, written out: lib/button.tsx sits in the signed-in
            screens' common chunk, which would bring the phone database and the outbox with it. */}
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {isBusy ? 'Looking up...' : 'Find my charge'}
        </button>
      </form>
    </>
  );
}

const LOOKUP_FAILED = 'The charge could not be looked up. Check your connection and try again.';

function cardReturnOf(value: string | null): 'returned' | 'cancelled' | null {
  if (value === CARD_RETURN_VALUES.paid) return 'returned';
  if (value === CARD_RETURN_VALUES.cancelled) return 'cancelled';
  return null;
}
