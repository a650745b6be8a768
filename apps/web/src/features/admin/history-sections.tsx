import type { AdminLedgerEntry, AuditEntry } from '@simcode/contract';
import { History, ReceiptText } from 'lucide-react';
import type { DetailSection } from '@/components/orders/detail-sections';
import { i18n } from '@/i18n';
import { AuditEntries, LedgerTable } from './parts';

/** The last two sections of an order's, a rent's or a payment's page: its money, and what administrators did. */
export function historySections(
  kind: 'order' | 'rent' | 'payment',
  data: { ledger: AdminLedgerEntry[]; audit: AuditEntry[] },
): DetailSection[] {
  return [
    {
      id: `${kind}-ledger`,
      icon: ReceiptText,
      title: i18n.t(`admin:${kind}.ledger`),
      empty: data.ledger.length === 0 && i18n.t(`admin:${kind}.noLedger`),
      content: <LedgerTable entries={data.ledger} />,
    },
    {
      id: `${kind}-audit`,
      icon: History,
      title: i18n.t(`admin:${kind}.audit`),
      empty: data.audit.length === 0 && i18n.t(`admin:${kind}.noAudit`),
      content: <AuditEntries entries={data.audit} showObject={false} />,
    },
  ];
}
