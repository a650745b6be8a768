import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DateTime } from '@/components/date-time';
import { linkClass } from '@/components/link-class';
import { Money } from '@/components/money/money';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatPhone } from '@/lib/format';

/** What every purchase a console list shows has: who bought it, when, and the number it gave. */
interface PurchaseRecord {
  id: number;
  user_id: number;
  username: string;
  created_at: string;
  phone: string | null;
}

interface RecordTableProps<Row extends PurchaseRecord> {
  rows: Row[];
  /** The table's name, which its heading also says. */
  label: string;
  /** Off on a user's own page, where every row is theirs. */
  showUser: boolean;
  headers: { record: string; user: string; what: string; phone: string; status: string; amount: string };
  /** The record's own page and its name ('Order #12'). */
  record(row: Row): { to: string; label: string };
  userPath(row: Row): string;
  /** What was bought: service, country, provider. */
  what(row: Row): ReactNode;
  /** The state: its badge and the notes beside it. */
  status(row: Row): ReactNode;
  /** Dollars: what it cost the user. */
  dollars(row: Row): number;
}

/**
 * Purchases as a table, one-time orders and rents alike. On a phone the user, what was bought, the phone
 * and the money fold under the record and its state: two columns fit 360 px.
 */
export function RecordTable<Row extends PurchaseRecord>(props: RecordTableProps<Row>) {
  const { rows, label, showUser, headers } = props;
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{headers.record}</TableHead>
          {showUser && (
            <TableHead scope="col" className="hidden sm:table-cell">
              {headers.user}
            </TableHead>
          )}
          <TableHead scope="col" className="hidden sm:table-cell">
            {headers.what}
          </TableHead>
          <TableHead scope="col" className="hidden md:table-cell">
            {headers.phone}
          </TableHead>
          <TableHead scope="col">{headers.status}</TableHead>
          <TableHead scope="col" className="hidden text-right sm:table-cell">
            {headers.amount}
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <RecordRow key={row.id} row={row} {...props} />
        ))}
      </TableBody>
    </Table>
  );
}

function RecordRow<Row extends PurchaseRecord>({
  row,
  showUser,
  record,
  userPath,
  what,
  status,
  dollars,
}: RecordTableProps<Row> & { row: Row }) {
  const { to, label } = record(row);
  const phone = row.phone ? formatPhone(row.phone) : '—';
  const bought = what(row);
  return (
    <TableRow>
      <TableCell className="align-top">
        <Link to={to} className={linkClass}>
          {label}
        </Link>
        <span className="block text-xs text-muted-foreground">
          <DateTime value={row.created_at} />
        </span>
        <span className="mt-1 block sm:hidden">
          {showUser && (
            <Link to={userPath(row)} className={`${linkClass} block text-xs`}>
              {row.username}
            </Link>
          )}
          {bought}
        </span>
        <span className="block text-xs whitespace-nowrap tabular-nums md:hidden">{phone}</span>
      </TableCell>
      {showUser && (
        <TableCell className="hidden align-top sm:table-cell">
          <Link to={userPath(row)} className={linkClass}>
            {row.username}
          </Link>
        </TableCell>
      )}
      <TableCell className="hidden align-top sm:table-cell">{bought}</TableCell>
      <TableCell className="hidden align-top whitespace-nowrap tabular-nums md:table-cell">{phone}</TableCell>
      <TableCell className="align-top">
        <div className="flex flex-col items-start gap-1">
          {status(row)}
          <span className="text-xs font-medium sm:hidden">
            <Money dollars={dollars(row)} />
          </span>
        </div>
      </TableCell>
      <TableCell className="hidden text-right align-top font-medium sm:table-cell">
        <Money dollars={dollars(row)} />
      </TableCell>
    </TableRow>
  );
}
