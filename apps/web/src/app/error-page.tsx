import { RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';

/** The router's screen for unexpected failures (a crashed page or a chunk that failed to load). */
export function ErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation('common');
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('error.title')}</h1>
      <p className="mt-2 max-w-md text-muted-foreground">{t('error.text')}</p>
      {detail && (
        <pre className="mt-4 max-w-full overflow-x-auto rounded-md bg-muted px-3 py-2 text-left text-xs text-slate-700">
          {detail}
        </pre>
      )}
      <div className="mt-8 flex gap-3">
        <Button onClick={() => window.location.reload()}>
          <RotateCw aria-hidden="true" />
          {t('error.reload')}
        </Button>
        <Button variant="outline" asChild>
          <a href={publicPath('/')}>{t('error.home')}</a>
        </Button>
      </div>
    </main>
  );
}
