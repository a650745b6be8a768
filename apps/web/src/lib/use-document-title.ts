import { useEffect } from 'react';
import { publicConfig } from './public-config';

/** Sets the tab title as '<page> | <app name>', or just the app name for the home page. */
export function useDocumentTitle(pageTitle?: string): void {
  useEffect(() => {
    const { appName } = publicConfig();
    document.title = pageTitle ? `${pageTitle} | ${appName}` : appName;
  }, [pageTitle]);
}
