import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadTextFile } from '../../../../lib/download';
import { formatAmount } from '../../../../lib/money';
import { describeFailure, failureIdentifier } from '../../../../lib/mutationOutcome';
import { Button } from '../../../../ui/Button';
import { Checkbox } from '../../../../ui/Checkbox';
import { Notice } from '../../../../ui/Notice';
import { SelectField } from '../../../../ui/SelectField';
import layout from '../../../../ui/layout.module.css';
import { SEPA_FORMATS, type SepaFormat } from '../../graphql/ExportPayoutRequests';
import { useExportPayoutRequests } from '../../hooks/useExportPayoutRequests';
import styles from '../Moderator.module.css';
import { serverDetail, type Message } from './payoutMessage';

/** The SEPA credit-transfer file: pain.001.001.09 unless the bank needs the older .03. */
export function ExportForm({ onExported }: { onExported: () => void }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const { exportPayoutRequests, loading } = useExportPayoutRequests();
  const [format, setFormat] = useState<SepaFormat>('pain.001.001.09');
  const [includeExported, setIncludeExported] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    setMessage(null);
    const outcome = await exportPayoutRequests({ format, includeExported });
    // What the file left out, and why: payouts held after a change of bank account.
    const held = outcome.result;
    const heldCount = held?.heldForReviewCount ?? 0;
    const heldAmount = formatAmount(held?.heldForReviewAmount ?? 0, i18n.language);
    const nothing: Message =
      heldCount > 0
        ? {
            tone: 'warning',
            text: t('moderator.payouts.export.nothingHeld', {
              count: heldCount,
              amount: heldAmount,
            }),
          }
        : {
            tone: 'info',
            text: t('moderator.payouts.export.nothing'),
            detail: includeExported ? null : t('moderator.payouts.export.nothingHint'),
          };
    if (!outcome.ok) {
      // The wallet answers not_found when no open payout is left to put in a file.
      if (failureIdentifier(outcome) === 'not_found') return setMessage(nothing);
      const text = describeFailure(t, outcome);
      if (text) {
        setMessage({
          tone: 'error',
          title: t('moderator.payouts.export.failedTitle'),
          text,
          detail: serverDetail(outcome, text),
        });
      }
      return;
    }
    const { xml, fileName, payoutCount, totalAmount } = outcome.result;
    if (!xml || !payoutCount) return setMessage(nothing);
    const name = fileName?.trim() || `payouts.${format}.xml`;
    downloadTextFile(name, xml, 'application/xml');
    setMessage({
      tone: 'success',
      text: t('moderator.payouts.export.downloaded', {
        fileName: name,
        count: payoutCount,
        amount: formatAmount(totalAmount ?? 0, i18n.language),
      }),
      detail:
        heldCount > 0
          ? t('moderator.payouts.export.leftOut', { count: heldCount, amount: heldAmount })
          : null,
    });
    onExported();
  };

  return (
    <form className={layout.panel} onSubmit={submit} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h3 id={titleId} className={styles.subTitle}>
          {t('moderator.payouts.export.title')}
        </h3>
        <p className={styles.sectionText}>{t('moderator.payouts.export.text')}</p>
      </div>
      <div className={styles.exportControls}>
        <SelectField
          className={styles.filter}
          label={t('moderator.payouts.export.format')}
          name="format"
          value={format}
          onChange={(event) => setFormat(event.target.value as SepaFormat)}
        >
          {SEPA_FORMATS.map((value) => (
            <option key={value} value={value}>
              {value === 'pain.001.001.09'
                ? t('moderator.payouts.export.formatCurrent', { format: value })
                : t('moderator.payouts.export.formatOlder', { format: value })}
            </option>
          ))}
        </SelectField>
        <Checkbox
          label={t('moderator.payouts.export.includeExported')}
          name="includeExported"
          checked={includeExported}
          onChange={(event) => setIncludeExported(event.target.checked)}
        />
        <Button type="submit" variant="primary" loading={loading}>
          {t('moderator.payouts.export.download')}
        </Button>
      </div>
      {message ? (
        <Notice tone={message.tone} title={message.title}>
          <p>{message.text}</p>
          {message.detail ? <p>{message.detail}</p> : null}
        </Notice>
      ) : null}
    </form>
  );
}
