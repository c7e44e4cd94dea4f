import { useState } from 'react';
import { Button as AriaButton, type Selection } from 'react-aria-components';
import { Mail, Send } from 'lucide-react';
import {
  ONBOARDING_LINK_TEXTS,
  ADMIN_TEXTS,
  aboutToSendText,
  bulkOnboardingSummary,
  DEFAULT_SORTS,
  ERROR_MESSAGES,
  ONBOARDING_EMAIL_CONTENTS,
  ONBOARDING_SORT_KEYS,
  ONBOARDING_EMAIL_NOTES_ITEM,
  SCREEN_TEXTS,
  sendOnboardingEmailsButton,
  SUCCESS_MESSAGES,
  type OnboardingCandidate,
  type BulkResult,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { DateTimeLines } from '../components/date-time-lines.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { getOnboardingCandidates, sendBulkOnboardingEmails, sendOnboardingEmail } from '../api/onboarding.ts';
import { ActiveChip, RoleChip } from '../components/chips.tsx';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { BulkResults } from '../components/bulk-results.tsx';
import { DismissibleAlert, type Notice } from '../components/dismissible-alert.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { useListParams } from '../components/use-list-params.ts';
import '../admin.css';

/** docs/product.md, Client Onboarding: the screen and its rules. */
export function ClientOnboardingScreen() {
  // The sort and the 'Never signed in' filter live in the URL; the server sorts and filters.
  const view = useListParams(ONBOARDING_SORT_KEYS, DEFAULT_SORTS.onboarding);
  const onlyNeverSignedIn = view.get('neverSignedIn') === 'true';
  const users = useAsync(
    () => getOnboardingCandidates({ ...view.sort, neverSignedIn: onlyNeverSignedIn }),
    [view.sort.sort, view.sort.order, onlyNeverSignedIn],
    ERROR_MESSAGES.fetchUsers,
  );
  const [selection, setSelection] = useState<Selection>(new Set());
  const [isDialogOpen, setDialogOpen] = useState(false);
  const [adminNotes, setAdminNotes] = useState('');
  const [isSending, setSending] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [results, setResults] = useState<BulkResult[] | null>(null);

  const list = users.data?.users ?? [];
  const selectedUsers = selection === 'all' ? list : list.filter((u) => selection.has(u.id));
  const selectedIds = selectedUsers.map((u) => u.id);
  const count = selectedIds.length;
  // One link per person: a new email stops the earlier link working (docs/decisions/0013).
  const emailedBefore = selectedUsers.filter((user) => user.lastOnboardingEmailAt !== null).length;
  const localAppUrl = users.data?.isAppUrlLocal ? ONBOARDING_LINK_TEXTS.localAppUrl(users.data.appUrl) : null;

  async function sendOne(user: OnboardingCandidate) {
    setSending(true);
    setNotice(null);
    try {
      await sendOnboardingEmail(user.id);
      // After an individual send the selection is kept (docs/product.md, Client Onboarding).
      const stopped = user.lastOnboardingEmailAt ? ` ${ONBOARDING_LINK_TEXTS.earlierLinkStopped}` : '';
      setNotice({ tone: 'success', text: `${SUCCESS_MESSAGES.onboardingEmailSent} to ${user.firstName} ${user.lastName}.${stopped}` });
      // Its 'Last emailed' column moves on.
      users.reload();
    } catch (error) {
      setNotice({ tone: 'error', text: toApiError(error, ERROR_MESSAGES.sendOnboardingEmail).message });
    } finally {
      setSending(false);
    }
  }

  async function sendBulk() {
    if (count === 0) {
      setNotice({ tone: 'error', text: ERROR_MESSAGES.selectAtLeastOneUser });
      return;
    }
    setSending(true);
    setNotice(null);
    try {
      const answer = await sendBulkOnboardingEmails(selectedIds, adminNotes);
      const succeeded = answer.results.filter((r) => r.success).length;
      // Named now, while the list still holds them: a send can take them out of a filtered list.
      setResults(
        answer.results.map((result) => ({
          id: result.userId,
          label: nameOf(result.userId),
          success: result.success,
          error: result.success ? undefined : (result.error ?? ERROR_MESSAGES.sendOnboardingEmail),
        })),
      );
      users.reload();
      setNotice({ tone: 'success', text: bulkOnboardingSummary(succeeded, answer.results.length - succeeded) });
      // After a successful bulk send the selection, notes and dialog are cleared (docs/product.md, Client Onboarding).
      setSelection(new Set());
      setAdminNotes('');
      setDialogOpen(false);
    } catch (error) {
      setNotice({ tone: 'error', text: toApiError(error, ERROR_MESSAGES.sendOnboardingEmails).message });
      setDialogOpen(false);
    } finally {
      setSending(false);
    }
  }

  const nameOf = (userId: string) => {
    const user = list.find((u) => u.id === userId);
    return user ? `${user.firstName} ${user.lastName}` : SCREEN_TEXTS.unknownUser;
  };
  const columns: Array<AdminColumn<OnboardingCandidate>> = [
    { id: 'name', label: ADMIN_TEXTS.name, sortKey: 'name', isRowHeader: true, render: (user) => `${user.firstName} ${user.lastName}` },
    { id: 'email', label: ADMIN_TEXTS.email, sortKey: 'email', render: (user) => user.email },
    { id: 'role', label: ADMIN_TEXTS.role, sortKey: 'role', render: (user) => <RoleChip role={user.role} /> },
    { id: 'status', label: ADMIN_TEXTS.status, render: (user) => <ActiveChip isActive={user.isActive} /> },
    { id: 'password', label: 'Password', sortKey: 'passwordSet', render: (user) => (user.hasPassword ? 'Set' : 'Not set') },
    {
      id: 'lastEmailed',
      label: 'Last emailed',
      sortKey: 'lastEmailed',
      render: (user) => (user.lastOnboardingEmailAt ? <DateTimeLines iso={user.lastOnboardingEmailAt} /> : SCREEN_TEXTS.never),
    },
    {
      id: 'lastSignIn',
      label: 'Last sign-in',
      sortKey: 'lastSignIn',
      render: (user) => (user.lastSignInAt ? <DateTimeLines iso={user.lastSignInAt} /> : SCREEN_TEXTS.never),
    },
    {
      id: 'actions',
      label: ADMIN_TEXTS.actions,
      isActions: true,
      render: (user) => (
        // react-aria's own Button: a press on it must not also toggle the row's selection.
        <AriaButton
          className="button button--icon"
          aria-label={`${SCREEN_TEXTS.sendIndividual} to ${user.firstName} ${user.lastName}`}
          onPress={() => void sendOne(user)}
          isDisabled={isSending}
        >
          <Mail aria-hidden="true" size={20} />
        </AriaButton>
      ),
    },
  ];

  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{SCREEN_TEXTS.clientOnboarding}</PageHeading>
        <Button onPress={() => setDialogOpen(true)} isDisabled={count === 0 || isSending}>
          <Send aria-hidden="true" size={18} />
          {sendOnboardingEmailsButton(count)}
        </Button>
      </div>

      {localAppUrl ? <Alert tone="info">{localAppUrl}</Alert> : null}
      <DismissibleAlert notice={notice} onDismiss={() => setNotice(null)} />

      <Card title={SCREEN_TEXTS.selectUsersToOnboard} titleId="onboarding-users-title">
        {/* Who still needs onboarding: nobody has signed in as them yet. */}
        <label className="onboarding__filter">
          <input
            type="checkbox"
            checked={onlyNeverSignedIn}
            onChange={(event) => {
              view.update({ neverSignedIn: event.target.checked ? 'true' : null });
              setSelection(new Set());
            }}
          />
          Never signed in
        </label>
        <AdminTable
          label={SCREEN_TEXTS.selectUsersToOnboard}
          columns={columns}
          rows={users.data?.users}
          isLoading={users.isLoading}
          error={users.error}
          emptyText={onlyNeverSignedIn ? 'Everyone has signed in at least once.' : 'No users yet.'}
          rowLabel={(user) => `${user.firstName} ${user.lastName}`}
          sort={view.sort}
          onSort={view.setSort}
          // Every candidate is on the one page, so the header's 'select all' covers the whole filtered set.
          selection={{
            keys: new Set(selection === 'all' ? list.map((u) => u.id) : [...selection].map(String)),
            onChange: setSelection,
            selectAllLabel: ADMIN_TEXTS.selectAllUsers,
            rowLabel: (user) => `${user.firstName} ${user.lastName}`,
          }}
          dependencies={[isSending]}
        />
      </Card>

      {results ? (
        <BulkResults
          itemHeading={ADMIN_TEXTS.user}
          title={SCREEN_TEXTS.onboardingResults}
          results={results}
          successText={SUCCESS_MESSAGES.emailSentSuccessfully}
        />
      ) : null}

      <ModalDialog
        title={SCREEN_TEXTS.sendOnboardingEmailsDialog}
        isOpen={isDialogOpen}
        onClose={() => setDialogOpen(false)}
        isBusy={isSending}
      >
        <p>{aboutToSendText(count)}</p>
        {emailedBefore > 0 ? <p className="modal__warning">{ONBOARDING_LINK_TEXTS.earlierLinkStops(emailedBefore)}</p> : null}
        {localAppUrl ? <p className="modal__warning">{localAppUrl}</p> : null}
        <TextField
          label={SCREEN_TEXTS.adminNotesOptional}
          placeholder={SCREEN_TEXTS.adminNotesPlaceholder}
          isMultiline
          rows={4}
          value={adminNotes}
          onChange={setAdminNotes}
          isDisabled={isSending}
        />
        <div className="info-box">
          <p>{ADMIN_TEXTS.emailWillInclude}</p>
          <ul>
            {ONBOARDING_EMAIL_CONTENTS.map((item) => (
              <li key={item}>{item}</li>
            ))}
            {adminNotes.trim() ? <li>{ONBOARDING_EMAIL_NOTES_ITEM}</li> : null}
          </ul>
        </div>
        <div className="modal__actions">
          <Button variant="secondary" onPress={() => setDialogOpen(false)} isDisabled={isSending}>
            {ADMIN_TEXTS.cancel}
          </Button>
          <Button onPress={() => void sendBulk()} isDisabled={isSending}>
            {isSending ? SCREEN_TEXTS.sending : SCREEN_TEXTS.sendEmails}
          </Button>
        </div>
      </ModalDialog>
    </div>
  );
}
