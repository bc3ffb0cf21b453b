import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { usePageMeta } from '../../../lib/usePageMeta';
import layout from '../../../ui/layout.module.css';
import { Guidelines } from '../../legal/components/LegalPages';
import { PageHeader } from '../../../ui/PageHeader';
import { TabLinks } from '../../../ui/Tabs';

// The settings pages form one lazily loaded chunk (see app/routes.tsx).
export { ChangePasswordPage } from './ChangePasswordPage';
export { EditAccountPage } from './EditAccountPage';
export { EditPaymentsPage } from './EditPaymentsPage';
export { EditProfilePage } from './EditProfilePage';

export const SETTINGS_SECTIONS = [
  'edit-profile',
  'edit-account',
  'change-password',
  'edit-payments',
  'edit-email-preferences',
  'guidelines',
  // The reporter's own reports (the moderation module's page, docs/adr/0059).
  'my-reports',
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** /settings: the section tabs and the current section. */
export function SettingsLayout() {
  const { t } = useTranslation();
  return (
    <div>
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <TabLinks
        label={t('settings.sectionsLabel')}
        links={SETTINGS_SECTIONS.map((section) => ({
          to: `/settings/${section}`,
          label: t(`settings.sections.${section}.title`),
        }))}
      />
      <Outlet />
    </div>
  );
}

// edit-email-preferences lives in the notifications module (app/routes.tsx).

/** /settings/guidelines: the community guidelines and compliance rules. */
export function GuidelinesPage() {
  const { t } = useTranslation();
  const title = t('settings.sections.guidelines.title');
  usePageMeta(`${title} · ${t('settings.title')}`);
  return (
    <section aria-labelledby="settings-guidelines-title">
      <h2 id="settings-guidelines-title" className={layout.panelTitle}>
        {title}
      </h2>
      <Guidelines />
    </section>
  );
}
