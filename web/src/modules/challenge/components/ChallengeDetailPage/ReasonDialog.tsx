import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../ui/Button';
import { TextArea } from '../../../../ui/Input';
import { Modal } from '../../../../ui/Modal';
import { REASON_MAX, charCount, reasonProblem } from '../../draft';
import styles from '../Challenge.module.css';

/** Decline (challenged user) or reject (owner) with a reason of at most 800 characters. */
export function ReasonDialog({
  open,
  kind,
  loading,
  failure,
  onClose,
  onSubmit,
}: {
  open: boolean;
  kind: 'decline' | 'reject';
  loading: boolean;
  failure: string | null;
  onClose: () => void;
  onSubmit: (reason: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const formId = useId();
  const problem = reasonProblem(reason);
  const problemText = problem
    ? t(`createChallenge.errors.${problem.key as 'reasonRequired'}`, { ...problem.values })
    : undefined;
  const shown = submitted ? problemText : undefined;
  const close = () => {
    setReason('');
    setSubmitted(false);
    onClose();
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (problem) return;
    if (await onSubmit(reason.trim())) {
      setReason('');
      setSubmitted(false);
    }
  };
  return (
    <Modal
      open={open}
      onClose={close}
      title={t(`challenge.${kind}.title`)}
      description={t(`challenge.${kind}.text`)}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {t('challenge.dialog.back')}
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={loading}>
            {t(`challenge.${kind}.confirm`)}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.dialogForm} onSubmit={submit} noValidate>
        <TextArea
          label={t('challenge.dialog.reason')}
          name="reason"
          rows={5}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          status={shown ? 'error' : 'hint'}
          message={
            shown ??
            t('challenge.dialog.reasonCount', { count: charCount(reason.trim()), max: REASON_MAX })
          }
        />
        {failure ? <p role="alert">{failure}</p> : null}
      </form>
    </Modal>
  );
}
