import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadLanguage } from '@/i18n';

// Components read their texts from the catalogues: the tests see the English ones, as the spec words them.
await loadLanguage('en');

// Each test renders into a fresh document.
afterEach(() => {
  cleanup();
});
