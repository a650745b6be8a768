import { lazy, Suspense } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { publicConfig } from '@/lib/public-config';

const AltchaWidget = lazy(() => import('./altcha-widget'));
const HostedCaptcha = lazy(() => import('./hosted-captcha'));

/** The configured captcha, loaded only on the pages that ask for it. */
export function CaptchaField({ onChange, resetKey }: { onChange(payload: string): void; resetKey?: number }) {
  const { captcha } = publicConfig();
  return (
    <Suspense fallback={<Skeleton className="h-[74px] w-full" />}>
      {captcha.provider === 'altcha' || !captcha.siteKey ? (
        <AltchaWidget onChange={onChange} resetKey={resetKey} />
      ) : (
        <HostedCaptcha
          provider={captcha.provider}
          siteKey={captcha.siteKey}
          onChange={onChange}
          resetKey={resetKey}
        />
      )}
    </Suspense>
  );
}
