import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAfterHydration } from '../../../lib/useHydrated';
import { Button } from '../../../ui/Button';
import { CheckIcon, TrophyIcon, UsersIcon, VideoIcon } from '../../../ui/icons';
import { Modal } from '../../../ui/Modal';
import { hasWatchedIntro, markIntroWatched } from '../introCookie';
import styles from './IntroVideoDialog.module.css';

/** Made by scripts/make-intro-video.sh into public/intro (served from the site root). */
const INTRO_VIDEO = { webm: '/intro/intro.webm', mp4: '/intro/intro.mp4' } as const;
/** The explainer's words, one WebVTT file per language (public/intro); the UI's is on. */
const CAPTIONS = [
  { language: 'en', src: '/intro/intro.en.vtt', label: 'English' },
  { language: 'nl', src: '/intro/intro.nl.vtt', label: 'Nederlands' },
] as const;

/**
 * First visit only: how the platform works. Closing it (any way) sets the
 * `firstTimeVisitVideoWatched` cookie for a year. It yields to a dialog opened by link (`?modal=`).
 */
export function IntroVideoDialog() {
  const { t, i18n } = useTranslation();
  const [searchParams] = useSearchParams();
  const captionLanguage = CAPTIONS.some(({ language }) => language === i18n.language)
    ? i18n.language
    : 'en';

  // The server's prerender cannot read the cookie: the dialog opens once the page is hydrated,
  // as a transition, which React renders in slices (docs/adr/0101).
  const hydrated = useAfterHydration();
  const [open, setOpen] = useState(() => typeof document !== 'undefined' && !hasWatchedIntro());

  const close = () => {
    markIntroWatched();
    setOpen(false);
  };

  // The four steps the video's captions tell, in the same words.
  const steps = [
    { icon: <UsersIcon size={22} />, title: t('intro.step1Title'), text: t('intro.step1Text') },
    { icon: <CheckIcon size={22} />, title: t('intro.step2Title'), text: t('intro.step2Text') },
    { icon: <VideoIcon size={22} />, title: t('intro.step3Title'), text: t('intro.step3Text') },
    { icon: <TrophyIcon size={22} />, title: t('intro.step4Title'), text: t('intro.step4Text') },
  ];

  return (
    <Modal
      open={hydrated && open && !searchParams.has('modal')}
      onClose={close}
      size="lg"
      title={t('intro.title')}
      footer={
        <Button variant="action-gradient" size="lg" onClick={close} data-autofocus>
          {t('intro.close')}
        </Button>
      }
    >
      {/* Title cards without words, so one file serves both languages: the captions say it. */}
      <video
        // The browser picks the `default` track once, when the tracks are added: a prerendered
        // page hydrates in English and then switches language, so a switch makes a new element.
        key={captionLanguage}
        className={styles.video}
        aria-label={t('intro.videoLabel')}
        controls
        muted
        playsInline
        // Loads when played: on a first visit the page's own code and data come first, and a
        // frame painted over the page would be its largest paint (docs/adr/0081).
        preload="none"
      >
        <source src={INTRO_VIDEO.webm} type="video/webm" />
        <source src={INTRO_VIDEO.mp4} type="video/mp4" />
        {CAPTIONS.map(({ language, src, label }) => (
          <track
            key={language}
            kind="captions"
            src={src}
            srcLang={language}
            label={label}
            default={language === captionLanguage}
          />
        ))}
      </video>
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
