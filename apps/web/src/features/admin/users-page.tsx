import { type AdminUserRow, adminRoutes } from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DateTime } from '@/components/date-time';
import { linkClass } from '@/components/link-class';
import { Money } from '@/components/money/money';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { usersQuery } from './api';
import { ListState, LoadMore, YesNo } from './parts';
import { SearchForm } from './search-form';

function RoleBadge({ role }: { role: AdminUserRow['role'] }) {
  const { t } = useTranslation('admin');
  return (
    <Badge variant={role === 'admin' ? 'info' : 'muted'}>
      {t(role === 'admin' ? 'role.admin' : 'role.user')}
    </Badge>
  );
}

function UserRow({ user }: { user: AdminUserRow }) {
  const { t } = useTranslation('admin');
  return (
    <TableRow>
      <TableCell className="align-top">
        <Link to={adminRoutes.user(user.id)} className={linkClass}>
          {user.username}
        </Link>
        <span className="block text-xs break-all text-muted-foreground">{user.email}</span>
        {/* On a phone the account's facts sit under its name: seven columns do not fit 360 px. */}
        <span className="mt-1 flex flex-wrap gap-1 md:hidden">
          {user.role === 'admin' && <RoleBadge role={user.role} />}
          {user.blocked && <Badge variant="destructive">{t('users.blocked')}</Badge>}
          {user.two_factor && <Badge variant="success">{t('users.twoFactor')}</Badge>}
        </span>
      </TableCell>
      <TableCell className="hidden align-top md:table-cell">
        <RoleBadge role={user.role} />
      </TableCell>
      <TableCell className="text-right align-top font-medium">
        <Money dollars={user.balance} />
      </TableCell>
      <TableCell className="hidden align-top md:table-cell">
        {user.blocked ? <Badge variant="destructive">{t('users.blocked')}</Badge> : <YesNo value={false} />}
      </TableCell>
      <TableCell className="hidden align-top md:table-cell">
        <YesNo value={user.two_factor} yes={t('on')} no={t('off')} />
      </TableCell>
      <TableCell className="hidden align-top text-sm whitespace-nowrap text-muted-foreground lg:table-cell">
        <DateTime value={user.created_at} />
      </TableCell>
    </TableRow>
  );
}

/** `/admin/users`: every account, newest first, searched by name, e-mail or id. */
export function UsersPage() {
  const { t } = useTranslation('admin');
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q') ?? '';
  const users = useInfiniteQuery(usersQuery(q));
  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];

  return (
    <>
      <PageHeader title={t('nav.users')} description={t('users.description')} />
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <SearchForm
          label={t('users.search')}
          placeholder={t('users.placeholder')}
          value={q}
          onSearch={(text) => setSearchParams(text ? { q: text } : {}, { replace: true })}
        />
        <ListState
          query={users}
          empty={rows.length === 0}
          emptyText={q ? t('users.noMatch', { q }) : t('users.none')}
        />
        {rows.length > 0 && (
          <Table aria-label={t('nav.users')}>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">{t('users.user')}</TableHead>
                <TableHead scope="col" className="hidden md:table-cell">
                  {t('users.role')}
                </TableHead>
                <TableHead scope="col" className="text-right">
                  {t('users.balance')}
                </TableHead>
                <TableHead scope="col" className="hidden md:table-cell">
                  {t('users.blocked')}
                </TableHead>
                <TableHead scope="col" className="hidden md:table-cell">
                  {t('users.twoFactor')}
                </TableHead>
                <TableHead scope="col" className="hidden lg:table-cell">
                  {t('users.created')}
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((user) => (
                <UserRow key={user.id} user={user} />
              ))}
            </TableBody>
          </Table>
        )}
        <LoadMore query={users} />
      </Card>
    </>
  );
}
