import { useMutation } from '@apollo/client/react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppOperationContext } from '../../../app/apolloClient';
import { describeFailure, settleMutation } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { Modal } from '../../../ui/Modal';
import { useToasts } from '../../../ui/toast/Toasts';
import { ShareChallengeLinkDocument } from '../graphql/ShareChallengeLink';
import styles from './Challenge.module.css';

/** The server's limit of addresses per share. */
export const SHARE_EMAILS_MAX = 10;
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

const context: AppOperationContext = { suppressErrorToast: true };

/** The addresses typed (comma, semicolon or space separated), or why they cannot be sent. */
export function parseShareEmails(
  text: string,
): { ok: true; emails: string[] } | { ok: false; problem: 'required' | 'invalid' | 'tooMany' } {
  const emails = [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
  if (emails.length === 0) return { ok: false, problem: 'required' };
  if (emails.some((email) => !EMAIL.test(email))) return { ok: false, problem: 'invalid' };
  if (emails.length > SHARE_EMAILS_MAX) return { ok: false, problem: 'tooMany' };
  return { ok: true, emails };
}

/** Invite people by e-mail through shareChallengeLink (the server sends and rate-limits). */
export function ShareByEmailDialog({
  slug,
  open,
  onClose,
}: {
  slug: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const [mutate, { loading }] = useMutation(ShareChallengeLinkDocument, { context });
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const formId = useId();
  const parsed = parseShareEmails(text);
  const problem =
    submitted && !parsed.ok
      ? t(`challenge.shareEmail.${parsed.problem}`, { max: SHARE_EMAILS_MAX })
      : null;

  const close = () => {
    setText('');
    setSubmitted(false);
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    if (!parsed.ok) return;
    const locale = i18n.language.startsWith('nl') ? 'nl' : 'en';
    const outcome = await settleMutation(
      () => mutate({ variables: { input: { slug, emails: parsed.emails.join(','), locale } } }),
      (data) => data.shareChallengeLink,
    );
    if (!outcome.ok) return setFailure(describeFailure(t, outcome));
    toasts.success(
      t('challenge.shareEmail.sent', {
        count: outcome.result.invitedCount ?? parsed.emails.length,
      }),
    );
    close();
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title={t('challenge.shareEmail.title')}
      description={t('challenge.shareEmail.text', { max: SHARE_EMAILS_MAX })}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {t('challenge.dialog.back')}
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={loading}>
            {t('challenge.shareEmail.send')}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.dialogForm} onSubmit={submit} noValidate>
        <Input
          label={t('challenge.shareEmail.label')}
          name="emails"
          type="text"
          inputMode="email"
          autoComplete="off"
          value={text}
          onChange={(event) => setText(event.target.value)}
          status={problem ? 'error' : 'none'}
          message={problem ?? undefined}
        />
        {failure ? <p role="alert">{failure}</p> : null}
      </form>
    </Modal>
  );
}
