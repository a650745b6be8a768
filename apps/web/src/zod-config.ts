import { z } from 'zod';

// Zod decides whether to compile a parser with `new Function` when a schema is built, probing for eval
// first: the page's CSP forbids eval and reports the probe. This module is the entry's first import, so
// it runs before any module that builds a schema (the contract's, imported through the app's modules).
z.config({ jitless: true });
