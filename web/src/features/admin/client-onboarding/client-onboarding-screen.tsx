import { useState } from 'react';
import { Button as AriaButton, Cell, Column, Row, Table, TableBody, TableHeader, type Selection } from 'react-aria-components';
import { CircleCheck, CircleX, Mail, Send } from 'lucide-react';
import {
  ADMIN_TEXTS,
  aboutToSendText,
  bulkOnboardingSummary,
  ERROR_MESSAGES,
  ONBOARDING_EMAIL_CONTENTS,
  ONBOARDING_EMAIL_NOTES_ITEM,
  SCREEN_TEXTS,
  sendOnboardingEmailsButton,
  SUCCESS_MESSAGES,
  type OnboardingCandidate,
  type OnboardingResult,
} from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { getOnboardingCandidates, sendBulkOnboardingEmails, sendOnboardingEmail } from '../api/onboarding.ts';
import { ActiveChip, RoleChip } from '../components/chips.tsx';
import { Checkbox } from '../components/checkbox.tsx';
import { DismissibleAlert, type Notice } from '../components/dismissible-alert.tsx';
import { ModalDialog } from '../components/modal-dialog.tsx';
import '../admin.css';

/** Spec section 2, Client Onboarding; state rules from section 4. */
export function ClientOnboardingScreen() {
  const users = useAsync(getOnboardingCandidates, [], ERROR_MESSAGES.fetchUsers);
  const [onlyNeverSignedIn, setOnlyNeverSignedIn] = useState(false);
  const [selection, setSelection] = useState<Selection>(new Set());
  const [isDialogOpen, setDialogOpen] = useState(false);
  const [adminNotes, setAdminNotes] = useState('');
  const [isSending, setSending] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [results, setResults] = useState<OnboardingResult[] | null>(null);

  const everyone = users.data ?? [];
  const list = onlyNeverSignedIn ? everyone.filter((user) => user.lastSignInAt === null) : everyone;
  const selectedIds = selection === 'all' ? list.map((u) => u.id) : list.filter((u) => selection.has(u.id)).map((u) => u.id);
  const count = selectedIds.length;

  async function sendOne(user: OnboardingCandidate) {
    setSending(true);
    setNotice(null);
    try {
      await sendOnboardingEmail(user.id);
      // Spec section 4: after an individual send the selection is kept.
      setNotice({ tone: 'success', text: `${SUCCESS_MESSAGES.onboardingEmailSent} to ${user.firstName} ${user.lastName}.` });
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
      setResults(answer.results);
      users.reload();
      setNotice({ tone: 'success', text: bulkOnboardingSummary(succeeded, answer.results.length - succeeded) });
      // Spec section 4: after a successful bulk send the selection, notes and dialog are cleared.
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
    const user = everyone.find((u) => u.id === userId);
    return user ? `${user.firstName} ${user.lastName}` : SCREEN_TEXTS.unknownUser;
  };

  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{SCREEN_TEXTS.clientOnboarding}</PageHeading>
        <Button onPress={() => setDialogOpen(true)} isDisabled={count === 0 || isSending}>
          <Send aria-hidden="true" size={18} />
          {sendOnboardingEmailsButton(count)}
        </Button>
      </div>

      <DismissibleAlert notice={notice} onDismiss={() => setNotice(null)} />

      {users.isLoading && !users.data ? (
        <Spinner label={SCREEN_TEXTS.loadingUsers} />
      ) : users.error && !users.data ? (
        <Alert>{users.error.message}</Alert>
      ) : (
        <Card title={SCREEN_TEXTS.selectUsersToOnboard} titleId="onboarding-users-title">
          {/* Who still needs onboarding: nobody has signed in as them yet. */}
          <label className="onboarding__filter">
            <input
              type="checkbox"
              checked={onlyNeverSignedIn}
              onChange={(event) => {
                setOnlyNeverSignedIn(event.target.checked);
                setSelection(new Set());
              }}
            />
            Never signed in
          </label>
          <div className="admin-table-scroll">
            <Table
              aria-labelledby="onboarding-users-title"
              className="table"
              selectionMode="multiple"
              selectionBehavior="toggle"
              selectedKeys={selection}
              onSelectionChange={setSelection}
            >
              <TableHeader>
                <Column className="table__narrow">
                  <Checkbox slot="selection" aria-label={ADMIN_TEXTS.selectAllUsers} />
                </Column>
                <Column isRowHeader>{ADMIN_TEXTS.name}</Column>
                <Column>{ADMIN_TEXTS.email}</Column>
                <Column>{ADMIN_TEXTS.role}</Column>
                <Column>{ADMIN_TEXTS.status}</Column>
                <Column>Password</Column>
                <Column>Last emailed</Column>
                <Column>Last sign-in</Column>
                <Column>{ADMIN_TEXTS.actions}</Column>
              </TableHeader>
              <TableBody items={list} dependencies={[isSending]} renderEmptyState={() => <p className="table__empty">No users yet.</p>}>
                {(user) => (
                  <Row id={user.id} className="table__row" textValue={`${user.firstName} ${user.lastName}`}>
                    <Cell className="table__narrow">
                      <Checkbox slot="selection" />
                    </Cell>
                    <Cell>{`${user.firstName} ${user.lastName}`}</Cell>
                    <Cell>{user.email}</Cell>
                    <Cell>
                      <RoleChip role={user.role} />
                    </Cell>
                    <Cell>
                      <ActiveChip isActive={user.isActive} />
                    </Cell>
                    <Cell>{user.hasPassword ? 'Set' : 'Not set'}</Cell>
                    <Cell className="table__nowrap">{user.lastOnboardingEmailAt ? formatDateTime(user.lastOnboardingEmailAt) : SCREEN_TEXTS.never}</Cell>
                    <Cell className="table__nowrap">{user.lastSignInAt ? formatDateTime(user.lastSignInAt) : SCREEN_TEXTS.never}</Cell>
                    <Cell>
                      {/* react-aria's own Button: a press on it must not also toggle the row's selection. */}
                      <AriaButton
                        className="button button--icon"
                        aria-label={`${SCREEN_TEXTS.sendIndividual} to ${user.firstName} ${user.lastName}`}
                        onPress={() => void sendOne(user)}
                        isDisabled={isSending}
                      >
                        <Mail aria-hidden="true" size={20} />
                      </AriaButton>
                    </Cell>
                  </Row>
                )}
              </TableBody>
            </Table>
          </div>
        </Card>
      )}

      {results ? (
        <Card title={SCREEN_TEXTS.onboardingResults} titleId="onboarding-results-title">
          <div className="admin-table-scroll">
            <Table aria-labelledby="onboarding-results-title" className="table">
              <TableHeader>
                <Column isRowHeader>{ADMIN_TEXTS.user}</Column>
                <Column>{ADMIN_TEXTS.status}</Column>
                <Column>{ADMIN_TEXTS.message}</Column>
              </TableHeader>
              <TableBody items={results.map((result) => ({ ...result, id: result.userId }))}>
                {(result) => (
                  <Row id={result.userId} className="table__row">
                    <Cell>{nameOf(result.userId)}</Cell>
                    <Cell>
                      <span className={`chip ${result.success ? 'chip--success' : 'chip--error'}`}>
                        {result.success ? <CircleCheck aria-hidden="true" size={14} /> : <CircleX aria-hidden="true" size={14} />}
                        {result.success ? ADMIN_TEXTS.success : ADMIN_TEXTS.failed}
                      </span>
                    </Cell>
                    <Cell className="table__wrap">{result.success ? SUCCESS_MESSAGES.emailSentSuccessfully : (result.error ?? ERROR_MESSAGES.sendOnboardingEmail)}</Cell>
                  </Row>
                )}
              </TableBody>
            </Table>
          </div>
        </Card>
      ) : null}

      <ModalDialog title={SCREEN_TEXTS.sendOnboardingEmailsDialog} isOpen={isDialogOpen} onOpenChange={setDialogOpen} isBusy={isSending}>
        <p>{aboutToSendText(count)}</p>
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
