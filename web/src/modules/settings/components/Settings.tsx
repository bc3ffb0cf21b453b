import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { usePageMeta } from '../../../lib/usePageMeta';
import { SettingsIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
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
type PlaceholderSection = 'guidelines';

function SettingsSectionPage({ section }: { section: PlaceholderSection }) {
  const { t } = useTranslation();
  const title = t(`settings.sections.${section}.title`);
  usePageMeta(`${title} · ${t('settings.title')}`);
  return (
    <PagePlaceholder
      as="h2"
      icon={<SettingsIcon size={28} />}
      title={title}
      description={t(`settings.sections.${section}.description`)}
    />
  );
}

export const GuidelinesPage = () => <SettingsSectionPage section="guidelines" />;
