import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { MailIcon } from '../../../ui/icons';
import { Input } from '../../../ui/Input';
import { PageHeader } from '../../../ui/PageHeader';
import { PageLoader } from '../../../ui/PageLoader';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import layout from '../../../ui/layout.module.css';
import { NotFoundPage } from '../../errors/components/NotFoundPage';
import { useDevInbox, type CaughtMail } from '../hooks/useDevInbox';
import styles from './Notifications.module.css';

/**
 * /dev/inbox, development only: the mail the local SMTP catcher received, so that someone running
 * `npm start` can log in with a magic link or a code without a real mail server. The gateway
 * serves the list only outside production (elsewhere this page is "not found").
 */
export function DevInboxPage() {
  const { t, i18n } = useTranslation();
  usePageMeta(t('notifications.devInbox.title'));
  const [params, setParams] = useSearchParams();
  const to = params.get('to') ?? '';
  const [filter, setFilter] = useState(to);
  const { messages, problem, loading, refresh } = useDevInbox(to);

  if (problem === 'unavailable') return <NotFoundPage />;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = filter.trim();
    if (next === to) return refresh();
    setParams(next ? { to: next } : {});
  };
  return (
    <div className={styles.page}>
      <PageHeader
        title={t('notifications.devInbox.title')}
        subtitle={t('notifications.devInbox.subtitle')}
      />
      <form className={styles.filter} onSubmit={submit} role="search">
        <Input
          label={t('notifications.devInbox.filter')}
          name="to"
          type="email"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          placeholder="name@example.com"
        />
        <Button type="submit" variant="secondary">
          {t('notifications.devInbox.refresh')}
        </Button>
      </form>
      {loading && !messages ? (
        <PageLoader />
      ) : problem ? (
        <p className={layout.alert} role="alert">
          {t(`notifications.devInbox.${problem}`)}
        </p>
      ) : messages && messages.length > 0 ? (
        <ul className={styles.mails} aria-label={t('notifications.devInbox.title')}>
          {messages.map((mail, index) => (
            <li key={mail.id}>
              <MailItem mail={mail} open={index === 0} language={i18n.language} />
            </li>
          ))}
        </ul>
      ) : (
        <PagePlaceholder
          as="h2"
          icon={<MailIcon size={28} />}
          title={t('notifications.devInbox.emptyTitle')}
          description={t('notifications.devInbox.empty')}
        />
      )}
    </div>
  );
}

function MailItem({ mail, open, language }: { mail: CaughtMail; open: boolean; language: string }) {
  return (
    <details className={styles.mail} open={open}>
      <summary>
        <span className={styles.mailSubject}>{mail.subject || '—'}</span>
        <span className={styles.mailMeta}>{mail.to.join(', ')}</span>
        <span className={styles.mailMeta}>
          {formatDate(mail.date, language, { dateStyle: 'short', timeStyle: 'medium' })}
        </span>
      </summary>
      <pre className={styles.mailBody}>{linkify(mail.text)}</pre>
    </details>
  );
}

/** Plain text with its http(s) links made clickable (the magic link is the point of this page). */
function linkify(text: string): ReactNode[] {
  return text.split(/(https?:\/\/[^\s<>"]+)/g).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={part} rel="noreferrer">
        {part}
      </a>
    ) : (
      part
    ),
  );
}
