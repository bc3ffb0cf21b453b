import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PlusIcon } from '../../../ui/icons';
import styles from './FloatingStartButton.module.css';

const CREATE_PATH = '/challenge/create';
/** How close (px) to the end of the page counts as the end. */
const END_SLACK = 4;

/** True for /challenge/create and every page under it (not for e.g. /challenge/create-x/detail). */
export function isUnderCreateChallenge(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '');
  return path === CREATE_PATH || path.startsWith(`${CREATE_PATH}/`);
}

/**
 * Whether the button would rest on content. A phone cannot spare a gutter beside the content, so
 * the button shows only over the page's bottom padding, which is kept free for it: at the end of
 * the page, or on a page that does not scroll. CSS applies this below the desktop breakpoint
 * only (on a desktop the button has a gutter of its own). docs/adr/0068.
 */
function useOverContent(): boolean {
  const { pathname } = useLocation();
  const [over, setOver] = useState(false);
  useEffect(() => {
    const check = () => {
      const end = document.documentElement.scrollHeight;
      setOver(window.scrollY + window.innerHeight < end - END_SLACK);
    };
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    // The page grows as its data comes in. The observer also reports the body once when the
    // browser next lays it out: the first check reads the sizes then, rather than forcing a
    // layout of the page in this effect (docs/adr/0101).
    const observer =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => check());
    if (observer) observer.observe(document.body);
    else check();
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
      observer?.disconnect();
    };
  }, [pathname]);
  return over;
}

/** Round "start a challenge" button, bottom-right, on every page except the create flow itself. */
export function FloatingStartButton() {
  const { pathname } = useLocation();
  if (isUnderCreateChallenge(pathname)) return null;
  return <StartButton />;
}

function StartButton() {
  const { t } = useTranslation();
  const tucked = useOverContent();
  // A landmark of its own: it floats outside the layout's sidebar and main (axe's "region").
  return (
    <nav aria-label={t('nav.quickStart')}>
      <Link
        to="/challenge/create/step-1"
        className={styles.fab}
        data-testid="floating-start-button"
        data-tucked={tucked}
      >
        <PlusIcon size={28} strokeWidth={2.5} />
        <span className={styles.tooltip}>{t('nav.startChallenge')}</span>
      </Link>
    </nav>
  );
}
