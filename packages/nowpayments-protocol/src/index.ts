export * from './amounts';
export * from './signature';
export * from './statuses';
