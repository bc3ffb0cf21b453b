import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/Button';
import { TextArea } from '../../../ui/Input';
import { Modal } from '../../../ui/Modal';
import { useFocusFirstInvalid } from '../../../ui/useFocusFirstInvalid';
import styles from './Moderator.module.css';

/** The server's limit of a staff reason (moderation's and wallet's, counted as the server counts). */
export const REASON_MAX = 800;

export interface ReasonDialogProps {
  title: string;
  /** The confirm button's label. */
  submitLabel: string;
  /** The dismiss button's label; "Cancel" by default. */
  cancelLabel?: string;
  size?: 'sm' | 'md';
  /** False when this choice takes no reason (verifying a user): only `children` are shown. */
  askReason?: boolean;
  reasonLabel?: string;
  /** Shown under an empty or valid reason; null shows nothing until there is an error. */
  reasonHint?: string | null;
  requiredMessage?: string;
  tooLongMessage?: string;
  /** While the action runs, the dialog cannot be closed (money: the result must be seen). */
  lockWhileLoading?: boolean;
  loading: boolean;
  /** What comes before the reason: an explanation, the facts, other fields. */
  children?: ReactNode;
  onClose: () => void;
  /**
   * Runs the action with the trimmed reason ('' when none is asked). Resolves to the failure to
   * show in the dialog, or null when the caller has taken it from here (closed the dialog).
   */
  onSubmit: (reason: string) => Promise<string | null>;
}

/**
 * Every staff action that takes a written reason (it goes to the audit log) asks for it the same
 * way: required, at most REASON_MAX characters, checked on submit (or on leaving the field when
 * there is no hint), with the server's refusal shown in the dialog.
 */
export function ReasonDialog({
  title,
  submitLabel,
  cancelLabel,
  size = 'md',
  askReason = true,
  reasonLabel,
  reasonHint,
  requiredMessage,
  tooLongMessage,
  lockWhileLoading = false,
  loading,
  children,
  onClose,
  onSubmit,
}: ReasonDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const [reason, setReason] = useState('');
  const [checked, setChecked] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const trimmed = reason.trim();
  const invalid = askReason && (trimmed.length === 0 || trimmed.length > REASON_MAX);
  const reasonError = !askReason
    ? undefined
    : trimmed.length > REASON_MAX
      ? (tooLongMessage ?? t('report.errors.detailsTooLong', { limit: REASON_MAX }))
      : checked && trimmed.length === 0
        ? (requiredMessage ?? t('report.console.reasonRequired'))
        : undefined;
  const hint = reasonHint === undefined ? t('report.console.reasonHint') : reasonHint;
  const locked = lockWhileLoading && loading;
  const close = () => {
    if (!locked) onClose();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (invalid) return focusFirstInvalid();
    if (loading) return;
    setFailure(null);
    setFailure(await onSubmit(askReason ? trimmed : ''));
  };

  return (
    <Modal
      open
      onClose={close}
      persistent={locked}
      title={title}
      size={size}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={locked}>
            {cancelLabel ?? t('report.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={loading}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form
        ref={formRef}
        id={formId}
        className={styles.reportForm}
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        {children}
        {askReason ? (
          <TextArea
            label={reasonLabel ?? t('report.console.reasonLabel')}
            name="reason"
            rows={3}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            // Without a hint, leaving a field one typed in says what is wrong with it at once
            // (passing through it on the way to Cancel is no mistake).
            onBlur={() => {
              if (hint === null && reason !== '') setChecked(true);
            }}
            status={reasonError ? 'error' : hint === null ? 'none' : 'hint'}
            message={reasonError ?? hint}
          />
        ) : null}
        {failure ? <p role="alert">{failure}</p> : null}
      </form>
    </Modal>
  );
}
