import { formatDateTime } from '@/lib/format';

/** A moment as a <time> element, written as the reader's language writes dates and times. */
export function DateTime({ value }: { value: string }) {
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}
