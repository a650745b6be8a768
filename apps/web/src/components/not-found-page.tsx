import { Home } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n/index';
import { useDocumentTitle } from '@/lib/use-document-title';

export function NotFoundPage() {
  const { t } = useTranslation('common');
  useDocumentTitle(t('notFound.title'));
  return (
    <main className="flex flex-1 flex-col items-center justify-center px-4 pt-28 pb-20 text-center">
      {/* Indigo 600: large text needs 3:1 against white (WCAG 1.4.3); the paler shade it had gave 1.5:1. */}
      <p className="text-7xl font-extrabold tracking-tight text-indigo-600 sm:text-8xl">404</p>
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">{t('notFound.heading')}</h1>
      <p className="mt-2 max-w-md text-muted-foreground">{t('notFound.text')}</p>
      <Button asChild className="mt-8">
        <Link to={publicPath('/')}>
          <Home aria-hidden="true" />
          {t('notFound.home')}
        </Link>
      </Button>
    </main>
  );
}
