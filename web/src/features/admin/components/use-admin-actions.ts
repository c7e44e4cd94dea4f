import { useState } from 'react';
import { toApiError, type ApiError } from '../../../lib/api-client.ts';
import type { Notice } from './dismissible-alert.tsx';

/**
 * The actions of a managed list (Manage Users, Manage Car Parks): which dialog is open, the
 * notice above the table, the row whose quick action is running, and the confirmation in
 * progress. Every action answers with the sentence to show, and the list reloads after it.
 */
export function useAdminActions<D>(reload: () => void, options: { onClose?: () => void } = {}) {
  const [dialog, setDialog] = useState<D | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [isConfirmBusy, setConfirmBusy] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  function closeDialog() {
    setDialog(null);
    setConfirmError(null);
    options.onClose?.();
  }

  /** A quick action on one row (activate, send an email): the row's menu waits for it. */
  async function runRowAction(rowId: string, action: () => Promise<string>, fallback: string) {
    setBusyId(rowId);
    setNotice(null);
    try {
      setNotice({ tone: 'success', text: await action() });
      reload();
    } catch (error) {
      setNotice({ tone: 'error', text: toApiError(error, fallback).message });
    } finally {
      setBusyId(null);
    }
  }

  /** The confirmed action of the open dialog: closes it when done, or keeps it open with the server's refusal (returned too). */
  async function confirm(action: () => Promise<string>, fallback: string): Promise<ApiError | null> {
    setConfirmBusy(true);
    setConfirmError(null);
    try {
      const text = await action();
      closeDialog();
      setNotice({ tone: 'success', text });
      reload();
      return null;
    } catch (error) {
      const apiError = toApiError(error, fallback);
      setConfirmError(apiError.message);
      return apiError;
    } finally {
      setConfirmBusy(false);
    }
  }

  return {
    dialog,
    setDialog,
    notice,
    setNotice,
    busyId,
    runRowAction,
    confirm,
    closeDialog,
    isConfirmBusy,
    /** What every confirmation dialog of the screen shares. */
    confirmProps: { isOpen: true, onClose: closeDialog, isBusy: isConfirmBusy, error: confirmError },
  };
}
