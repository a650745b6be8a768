import { Bell, BellOff } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { NavbarMenu } from '@/components/navbar-menu';
import { LabelledSwitch } from '@/components/ui/switch';
import { updateAlertSettings, useAlertSettings } from './settings';

const notificationsSupported = () => typeof Notification === 'function';

/**
 * The navigation bar's bell: whether a code arriving plays a sound and shows a browser notification. The
 * browser's permission is asked for only when the user turns notifications on.
 */
export default function AlertsMenu({ className }: { className?: string }) {
  const { t } = useTranslation('alerts');
  const settings = useAlertSettings();
  const id = useId();
  const [permission, setPermission] = useState(() =>
    notificationsSupported() ? Notification.permission : 'denied',
  );
  const notificationsOn = settings.notifications && permission === 'granted';

  async function switchNotifications(on: boolean) {
    if (!on) {
      updateAlertSettings({ notifications: false });
      toast.success(t('notificationsOff'));
      return;
    }
    // Asked only now, when the user wants notifications; an answer given before comes back without a prompt.
    const answer = await Notification.requestPermission();
    setPermission(answer);
    if (answer !== 'granted') {
      toast.error(t('notificationsBlocked'));
      return;
    }
    updateAlertSettings({ notifications: true });
    toast.success(t('notificationsOn'));
  }

  return (
    <NavbarMenu
      className={className}
      // On a phone the bell is not at the screen's edge: the panel spans the screen below the bar instead.
      panelClassName="w-72 p-3 max-sm:fixed max-sm:inset-x-4 max-sm:top-16 max-sm:w-auto"
      label={t('menu')}
      summary={
        settings.sound ? (
          <Bell className="size-4" aria-hidden="true" />
        ) : (
          <BellOff className="size-4" aria-hidden="true" />
        )
      }
    >
      {() => (
        <div className="flex flex-col gap-3">
          <p className="text-sm font-semibold">{t('heading')}</p>
          <LabelledSwitch
            id={`${id}-sound`}
            checked={settings.sound}
            onCheckedChange={(sound) => {
              updateAlertSettings({ sound });
              toast.success(sound ? t('soundOn') : t('soundOff'));
            }}
            label={t('sound')}
          />
          <LabelledSwitch
            id={`${id}-notifications`}
            checked={notificationsOn}
            disabled={!notificationsSupported()}
            onCheckedChange={(on) => void switchNotifications(on)}
            label={t('notifications')}
          />
          {!notificationsSupported() ? (
            <p className="text-xs text-muted-foreground">{t('notificationsUnsupported')}</p>
          ) : (
            permission === 'denied' && (
              <p className="text-xs text-muted-foreground">{t('notificationsBlocked')}</p>
            )
          )}
          <p className="text-xs text-muted-foreground">{t('hint')}</p>
        </div>
      )}
    </NavbarMenu>
  );
}
