import { useState } from 'react';
import { OPERATOR_LOGO_DISPLAY, OPERATOR_LOGO_MESSAGES } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { apiAssetUrl } from '../../../lib/api-asset-url.ts';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { CsvFileField } from '../../../lib/csv-file-field.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { OPERATOR_LOGO_SAVE_FAILED, removeOperatorLogo, uploadOperatorLogo } from '../api/settings.ts';

/**
 * The logo /charge shows beside the operator's name: optional, a PNG or JPEG the server checks by
 * its bytes and keeps as a small PNG. Previewed here as /charge draws it.
 */
export function OperatorLogoCard({ logoUrl, operatorName }: { logoUrl: string | null; operatorName: string | null }) {
  const [current, setCurrent] = useState(logoUrl);
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useFormSubmit({ fallbackMessage: OPERATOR_LOGO_SAVE_FAILED });
  const handleUpload = form.handle(
    () => (file ? { success: true, data: file } : { success: false, fieldErrors: { logo: OPERATOR_LOGO_MESSAGES.required } }),
    async (chosen) => {
      setCurrent((await uploadOperatorLogo(chosen)).logoUrl);
      setDone('Logo saved');
    },
  );
  const remove = useFormSubmit({ fallbackMessage: OPERATOR_LOGO_SAVE_FAILED });
  const handleRemove = remove.handle(
    () => ({ success: true, data: null }),
    async () => {
      setCurrent((await removeOperatorLogo()).logoUrl);
      setDone('Logo removed');
    },
  );
  return (
    <Card title="Logo" titleId="operator-logo-title">
      <p className="muted card__intro">Shown beside the creditor's name at the top of the charge page. A PNG or JPEG of 512 KB or less.</p>
      {done ? <Alert tone="success">{done}</Alert> : null}
      {current ? (
        <form className="form-stack" onSubmit={handleRemove} noValidate>
          <img
            className="operator-logo-preview"
            src={apiAssetUrl(current)}
            alt={operatorName ? `Logo of ${operatorName}` : 'Logo'}
            width={OPERATOR_LOGO_DISPLAY.width}
            height={OPERATOR_LOGO_DISPLAY.height}
          />
          {remove.formError ? <Alert>{remove.formError}</Alert> : null}
          <div className="form-actions">
            <Button type="submit" variant="secondary" isDisabled={remove.isBusy}>
              Remove logo
            </Button>
          </div>
        </form>
      ) : (
        <p className="muted">No logo: the charge page shows the name alone.</p>
      )}
      <form className="form-stack" onSubmit={handleUpload} noValidate>
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        <CsvFileField
          id="operator-logo-file"
          label={current ? 'New logo (PNG or JPEG)' : 'Logo (PNG or JPEG)'}
          name="logo"
          accept="image/png,image/jpeg"
          error={form.errors.logo}
          onFile={(chosen) => {
            setFile(chosen);
            setDone(null);
          }}
        />
        <div className="form-actions">
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Uploading...' : 'Upload logo'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
