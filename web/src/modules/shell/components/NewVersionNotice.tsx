import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig } from '../../../app/config';
import { Button } from '../../../ui/Button';
import styles from './NewVersionNotice.module.css';

/** How often an open tab asks whether a newer build is out. */
export const LATEST_BUILD_CHECK_MS = 5 * 60 * 1000;

/** Reads the id of the newest build; null when the answer is not readable. */
export async function fetchLatestBuildId(path = appConfig.latestBuildPath): Promise<string | null> {
  const response = await fetch(path, { cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) return null;
  const body: unknown = await response.json();
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : null;
  return typeof id === 'string' && id ? id : null;
}

export interface NewVersionNoticeProps {
  /** This build's id; without one (dev server, tests) nothing is checked. */
  currentBuildId?: string | undefined;
  intervalMs?: number;
  fetchLatest?: () => Promise<string | null>;
  reload?: () => void;
}

/**
 * The latest-build check (spec section 4): on a timer, and when the tab becomes visible again, it
 * compares builds/latest.json with this build and, once they differ, tells the user a new version
 * is there with a button to load it. It never reloads by itself: a form may be half filled in.
 */
export function NewVersionNotice({
  currentBuildId = appConfig.buildId,
  intervalMs = LATEST_BUILD_CHECK_MS,
  fetchLatest = fetchLatestBuildId,
  reload = () => window.location.reload(),
}: NewVersionNoticeProps) {
  const { t } = useTranslation();
  const [newer, setNewer] = useState(false);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (!currentBuildId || newer) return undefined;
    let active = true;
    const check = async () => {
      try {
        const latest = await fetchLatest();
        if (active && latest && latest !== currentBuildId) setNewer(true);
      } catch {
        // Offline or mid-deploy: ask again next time.
      }
    };
    const timer = window.setInterval(() => void check(), intervalMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      active = false;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [currentBuildId, fetchLatest, intervalMs, newer]);

  if (!newer || dismissed) return null;
  return (
    <div className={styles.notice} role="status">
      <p className={styles.text}>{t('app.newVersion.text')}</p>
      <div className={styles.actions}>
        <Button variant="action-gradient" size="sm" onClick={reload}>
          {t('app.newVersion.reload')}
        </Button>
        <Button variant="tertiary" size="sm" onClick={() => setDismissed(true)}>
          {t('app.newVersion.later')}
        </Button>
      </div>
    </div>
  );
}
