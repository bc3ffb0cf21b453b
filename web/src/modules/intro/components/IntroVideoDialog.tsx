import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../ui/Button';
import { PlayIcon, TrophyIcon, UsersIcon, VideoIcon } from '../../../ui/icons';
import { Modal } from '../../../ui/Modal';
import { hasWatchedIntro, markIntroWatched } from '../introCookie';
import styles from './IntroVideoDialog.module.css';

/**
 * First visit only: how the platform works. Closing it (any way) sets the
 * `firstTimeVisitVideoWatched` cookie for a year. It yields to a dialog opened by link (`?modal=`).
 */
export function IntroVideoDialog() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [open, setOpen] = useState(() => !hasWatchedIntro());

  const close = () => {
    markIntroWatched();
    setOpen(false);
  };

  const steps = [
    { icon: <UsersIcon size={22} />, title: t('intro.step1Title'), text: t('intro.step1Text') },
    { icon: <VideoIcon size={22} />, title: t('intro.step2Title'), text: t('intro.step2Text') },
    { icon: <TrophyIcon size={22} />, title: t('intro.step3Title'), text: t('intro.step3Text') },
  ];

  return (
    <Modal
      open={open && !searchParams.has('modal')}
      onClose={close}
      size="lg"
      title={t('intro.title')}
      footer={
        <Button variant="action-gradient" size="lg" onClick={close} data-autofocus>
          {t('intro.close')}
        </Button>
      }
    >
      <div className={styles.video} role="img" aria-label={t('intro.videoLabel')}>
        <span className={styles.play} aria-hidden="true">
          <PlayIcon size={30} />
        </span>
        <p className={styles.tagline}>{t('app.tagline')}</p>
      </div>
      <ol className={styles.steps}>
        {steps.map((step, index) => (
          <li key={step.title} className={styles.step}>
            <span className={styles.stepIcon} aria-hidden="true">
              {step.icon}
            </span>
            <div>
              <h3 className={styles.stepTitle}>
                <span className={styles.stepNumber}>{index + 1}.</span> {step.title}
              </h3>
              <p className={styles.stepText}>{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <p className={styles.note}>{t('intro.note')}</p>
    </Modal>
  );
}
