import { Home } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <main className="flex flex-1 flex-col items-center justify-center px-4 pt-28 pb-20 text-center">
      {/* Indigo 600: large text needs 3:1 against white (WCAG 1.4.3); the paler shade it had gave 1.5:1. */}
      <p className="text-7xl font-extrabold tracking-tight text-indigo-600 sm:text-8xl">404</p>
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">Oops! Page not found</h1>
      <p className="mt-2 max-w-md text-muted-foreground">
        The page you are looking for does not exist or has moved.
      </p>
      <Button asChild className="mt-8">
        <Link to="/">
          <Home aria-hidden="true" />
          Go back home
        </Link>
      </Button>
    </main>
  );
}
