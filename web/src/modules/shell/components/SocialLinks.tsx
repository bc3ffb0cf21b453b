import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig, type SocialNetwork } from '../../../app/config';
import {
  FacebookIcon,
  InstagramIcon,
  LinkedInIcon,
  TikTokIcon,
  XBrandIcon,
  YouTubeIcon,
} from '../../../ui/icons';
import styles from './SocialLinks.module.css';

const ICONS: Record<SocialNetwork, ReactNode> = {
  instagram: <InstagramIcon size={18} />,
  tiktok: <TikTokIcon size={18} />,
  youtube: <YouTubeIcon size={18} />,
  facebook: <FacebookIcon size={18} />,
  x: <XBrandIcon size={18} />,
  linkedin: <LinkedInIcon size={18} />,
};

export function SocialLinks() {
  const { t } = useTranslation();
  return (
    <ul className={styles.list} aria-label={t('nav.followUs')}>
      {appConfig.socialLinks.map((link) => (
        <li key={link.network}>
          <a
            className={styles.link}
            href={link.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${t(`social.${link.network}`)} ${t('social.newTab')}`}
            title={t(`social.${link.network}`)}
          >
            {ICONS[link.network]}
          </a>
        </li>
      ))}
    </ul>
  );
}
