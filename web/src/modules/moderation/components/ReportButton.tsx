import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure, failureIdentifier } from '../../../lib/mutationOutcome';
import { Button, ButtonLink } from '../../../ui/Button';
import { AlertIcon } from '../../../ui/icons';
import { TextArea } from '../../../ui/Input';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { SelectField } from '../../../ui/SelectField';
import { useFocusFirstInvalid } from '../../../ui/useFocusFirstInvalid';
import {
  REASONS_NEEDING_DETAILS,
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  type ReportEntityType,
  type ReportReason,
} from '../graphql/CreateReport';
import { useCreateReport } from '../hooks/useCreateReport';
import styles from './Moderator.module.css';
import { MY_REPORTS_PATH } from './myReportsPath';

/** A "Report" button that opens the report dialog for a challenge or a user. */
export function ReportButton({
  entityType,
  entityId,
  name,
}: {
  entityType: ReportEntityType;
  entityId: string;
  /** What is reported, as the page shows it (the challenge's name, the user's name). */
  name: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="tertiary"
        size="sm"
        iconStart={<AlertIcon size={16} />}
        onClick={() => setOpen(true)}
      >
        {entityType === 'Challenge' ? t('report.buttonChallenge') : t('report.buttonUser')}
      </Button>
      {open ? (
        <ReportDialog
          entityType={entityType}
          entityId={entityId}
          name={name}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function isReason(value: string): value is ReportReason {
  return (REPORT_REASONS as readonly string[]).includes(value);
}

/** The reason, the details (required for the reasons that need them) and the answer. */
export function ReportDialog({
  entityType,
  entityId,
  name,
  onClose,
}: {
  entityType: ReportEntityType;
  entityId: string;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { createReport, loading } = useCreateReport();
  const formId = useId();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [alreadyReported, setAlreadyReported] = useState(false);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const trimmed = details.trim();
  const length = Array.from(trimmed).length;
  const needsDetails = reason !== '' && REASONS_NEEDING_DETAILS.has(reason);
  const reasonError = submitted && reason === '' ? t('report.errors.reasonRequired') : undefined;
  const detailsError =
    length > REPORT_DETAILS_MAX
      ? t('report.errors.detailsTooLong', { limit: REPORT_DETAILS_MAX })
      : submitted && needsDetails && length === 0
        ? t('report.errors.detailsRequired')
        : undefined;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (reason === '' || (needsDetails && length === 0) || length > REPORT_DETAILS_MAX)
      return focusFirstInvalid();
    if (loading) return;
    setFailure(null);
    const outcome = await createReport({
      entityType,
      entityId,
      reason,
      ...(length > 0 ? { details: trimmed } : {}),
    });
    if (outcome.ok) {
      setSent(true);
      return;
    }
    if (failureIdentifier(outcome) === 'redundant_report') {
      setAlreadyReported(true);
      return;
    }
    setFailure(describeFailure(t, outcome));
  };

  const title =
    entityType === 'Challenge'
      ? t('report.titleChallenge', { name })
      : t('report.titleUser', { name });

  if (sent) {
    // The confirmation stays in the dialog, with the way to follow the report (docs/adr/0059).
    return (
      <Modal
        open
        onClose={onClose}
        title={title}
        size="md"
        footer={
          <>
            <ButtonLink variant="secondary" to={MY_REPORTS_PATH} onClick={onClose}>
              {t('report.toMyReports')}
            </ButtonLink>
            <Button variant="primary" onClick={onClose}>
              {t('report.close')}
            </Button>
          </>
        }
      >
        <Notice tone="success" title={t('report.sentTitle')}>
          <p>{t('report.sent')}</p>
          <p>{t('report.followUp')}</p>
        </Notice>
      </Modal>
    );
  }

  if (alreadyReported) {
    return (
      <Modal
        open
        onClose={onClose}
        title={title}
        size="md"
        footer={
          <Button variant="primary" onClick={onClose}>
            {t('report.close')}
          </Button>
        }
      >
        <Notice tone="info" title={t('errors.redundant_report')}>
          {t('report.redundantExplained')}
        </Notice>
      </Modal>
    );
  }

  return (
    <Modal
      open
      onClose={onClose}
      title={title}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('report.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={loading}>
            {t('report.submit')}
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
        <p>{t('report.intro')}</p>
        <SelectField
          label={t('report.reasonLabel')}
          name="reason"
          value={reason}
          onChange={(event) => setReason(isReason(event.target.value) ? event.target.value : '')}
          status={reasonError ? 'error' : 'none'}
          message={reasonError}
        >
          <option value="">{t('report.chooseReason')}</option>
          {REPORT_REASONS.map((value) => (
            <option key={value} value={value}>
              {t(`report.reasons.${value}`)}
            </option>
          ))}
        </SelectField>
        <TextArea
          label={needsDetails ? t('report.detailsLabelRequired') : t('report.detailsLabel')}
          name="details"
          rows={4}
          value={details}
          onChange={(event) => setDetails(event.target.value)}
          status={detailsError ? 'error' : 'hint'}
          message={
            detailsError ?? t('report.detailsCount', { count: length, max: REPORT_DETAILS_MAX })
          }
        />
        {failure ? <p role="alert">{failure}</p> : null}
      </form>
    </Modal>
  );
}
