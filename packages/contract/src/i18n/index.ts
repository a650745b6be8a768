export * from './define-messages';
export * from './instance';
export * from './languages';
export * from './localize-english';
