import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../../lib/errorMessages';
import { usePageMeta } from '../../../lib/usePageMeta';
import { ButtonLink } from '../../../ui/Button';
import { AlertIcon, MailIcon } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { useVerifyingUser } from '../hooks/useVerifyingUser';
import { useVerifyLoginLink } from '../hooks/useVerifyLoginLink';
import { safeInternalPath } from '../safePath';
import { AuthCard } from './AuthCard';
import styles from './AuthPage.module.css';

/** The failures this page explains in its own words; anything else gets the catalogue text. */
const KNOWN_FAILURES = [
  'expired_credentials',
  'invalid_credentials',
  'too_many_requests',
  'incomplete_link',
] as const;
type KnownFailure = (typeof KNOWN_FAILURES)[number];

type PageState =
  | { kind: 'checking' }
  | { kind: 'failed'; identifier: string | null; message: string | null; network: boolean };

interface LoginLink {
  email: string;
  hash: string;
  expires: number;
}

function readLink(params: URLSearchParams): LoginLink | null {
  const email = params.get('email')?.trim();
  const hash = params.get('hash')?.trim();
  const expires = params.get('expires')?.trim();
  if (!email || !hash || !expires || !/^\d{1,12}$/.test(expires)) return null;
  return { email, hash, expires: Number(expires) };
}

/** Where to show the complete-account dialog: back where the link was requested, not on /terms. */
function signUpTarget(originUrl: string | null): string {
  const path = safeInternalPath(originUrl);
  const usable = path && !path.startsWith('/login') && path.split('?')[0] !== '/terms';
  return `${usable ? path.split('?')[0] : '/'}?modal=complete-account`;
}

/** /login/magic-link/verify?email=&hash=&expires=: the link from the login e-mail. */
export function MagicLinkVerifyPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.magicLinkVerify.title'));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { setVerifying } = useVerifyingUser();
  const { verifyLoginLink } = useVerifyLoginLink();
  const link = readLink(params);
  const linkKey = link ? `${link.email}\n${link.hash}\n${link.expires}` : null;
  const [state, setState] = useState<PageState>({ kind: 'checking' });
  // One attempt per link, also when StrictMode runs the effect twice: a link is single-use.
  const attempted = useRef<string | null>(null);

  useEffect(() => {
    if (!link || !linkKey || attempted.current === linkKey) return;
    attempted.current = linkKey;
    setState({ kind: 'checking' });
    void verifyLoginLink(link).then(async (outcome) => {
      if (outcome.kind === 'logged-in') {
        await navigate(safeInternalPath(outcome.originUrl) ?? '/', { replace: true });
      } else if (outcome.kind === 'needs-account') {
        setVerifying({ type: 'link', ...link });
        await navigate(signUpTarget(outcome.originUrl), { replace: true });
      } else {
        setState(outcome);
      }
    });
  }, [link, linkKey, navigate, setVerifying, verifyLoginLink]);

  if (!link) return <LinkFailure identifier="incomplete_link" message={null} network={false} />;
  if (state.kind === 'failed') return <LinkFailure {...state} />;
  return (
    <AuthCard
      centered
      role="status"
      icon={<MailIcon size={28} />}
      title={t('auth.verifyLink.checkingTitle')}
      text={t('auth.verifyLink.checkingText', { email: link.email })}
    >
      <Spinner size="lg" />
    </AuthCard>
  );
}

function LinkFailure({
  identifier,
  message,
  network,
}: {
  identifier: string | null;
  message: string | null;
  network: boolean;
}) {
  const { t } = useTranslation();
  const known = (KNOWN_FAILURES as readonly string[]).includes(identifier ?? '')
    ? (identifier as KnownFailure)
    : null;
  const title = known
    ? t(`auth.verifyLink.failures.${known}.title`)
    : t('auth.verifyLink.failures.other.title');
  const text = known
    ? t(`auth.verifyLink.failures.${known}.text`)
    : network
      ? t('toast.networkError')
      : errorText(t, identifier, message);
  return (
    <AuthCard
      centered
      role="alert"
      tone="error"
      icon={<AlertIcon size={28} />}
      title={title}
      text={text}
    >
      <div className={styles.actions}>
        <ButtonLink to="/?modal=login-magic-link" variant="action-gradient" replace>
          {t('auth.verifyLink.requestNew')}
        </ButtonLink>
        <ButtonLink to="/" variant="secondary">
          {t('errorPage.home')}
        </ButtonLink>
      </div>
    </AuthCard>
  );
}
