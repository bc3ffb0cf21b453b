import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PlusIcon } from '../../../ui/icons';
import styles from './FloatingStartButton.module.css';

const CREATE_PATH = '/challenge/create';
/** Scrolling less than this (px) changes nothing; near the top the button always shows. */
const SCROLL_SLACK = 8;
const TOP_ZONE = 80;

/** True for /challenge/create and every page under it (not for e.g. /challenge/create-x/detail). */
export function isUnderCreateChallenge(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '');
  return path === CREATE_PATH || path.startsWith(`${CREATE_PATH}/`);
}

/**
 * Whether the reader is scrolling down through the page (not at its top or its end). On a phone
 * the button then steps aside, so that it never sits on what is being read; CSS applies it below
 * the desktop breakpoint only (on a desktop the button has a gutter of its own).
 */
function useScrollingDown(): boolean {
  const [down, setDown] = useState(false);
  useEffect(() => {
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      const atEnd =
        y + window.innerHeight >= document.documentElement.scrollHeight - SCROLL_SLACK / 2;
      if (y < TOP_ZONE || atEnd) setDown(false);
      else if (y > last + SCROLL_SLACK) setDown(true);
      else if (y < last - SCROLL_SLACK) setDown(false);
      else return;
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return down;
}

/** Round "start a challenge" button, bottom-right, on every page except the create flow itself. */
export function FloatingStartButton() {
  const { pathname } = useLocation();
  if (isUnderCreateChallenge(pathname)) return null;
  return <StartButton />;
}

function StartButton() {
  const { t } = useTranslation();
  const tucked = useScrollingDown();
  return (
    <Link
      to="/challenge/create/step-1"
      className={styles.fab}
      data-testid="floating-start-button"
      data-tucked={tucked}
    >
      <PlusIcon size={28} strokeWidth={2.5} />
      <span className={styles.tooltip}>{t('nav.startChallenge')}</span>
    </Link>
  );
}
