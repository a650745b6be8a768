import type { FavouritesResponse } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Star } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { favouritesQuery, useSaveFavourite } from './api';

/** A starred service (countryID null: in every country) or (service, country) pair. */
export interface FavouriteKey {
  service: string;
  countryID: string | null;
}

/** Whether the list has this exact service or pair starred. */
function isStarred(data: FavouritesResponse | undefined, key: FavouriteKey): boolean {
  return (
    data?.favourites.some(
      (favourite) => favourite.service === key.service && favourite.countryID === key.countryID,
    ) ?? false
  );
}

/** Whether a service is starred on its own or with any country: such services come first in the lists. */
export function isFavouriteService(data: FavouritesResponse | undefined, service: string): boolean {
  return data?.favourites.some((favourite) => favourite.service === service) ?? false;
}

/** Favourites first, the given order kept otherwise. */
export function favouritesFirst<T>(items: T[], isFavourite: (item: T) => boolean): T[] {
  return [...items.filter(isFavourite), ...items.filter((item) => !isFavourite(item))];
}

/** The user's favourites and recent purchases, and the star toggle's save. */
export function useFavourites() {
  const favourites = useQuery(favouritesQuery);
  const save = useSaveFavourite();
  return { data: favourites.data, save };
}

/**
 * The star of a service or a pair: a toggle button (pressed when starred) whose name says what it stars.
 * `label` names the thing ('Telegram in United States').
 */
export function FavouriteStar({
  favouriteKey,
  label,
  className,
  ...rest
}: {
  favouriteKey: FavouriteKey;
  label: string;
  className?: string;
} & Omit<React.ComponentProps<typeof Button>, 'onClick' | 'children'>) {
  const { t } = useTranslation('dashboard');
  const { data, save } = useFavourites();
  const starred = isStarred(data, favouriteKey);
  const pending =
    save.isPending &&
    save.variables.service === favouriteKey.service &&
    save.variables.countryID === favouriteKey.countryID;
  return (
    <Button
      variant="ghost"
      size="icon-sm"
      aria-pressed={starred}
      aria-label={t('favourites.star', { name: label })}
      title={starred ? t('favourites.unstarHint') : t('favourites.starHint')}
      aria-busy={pending || undefined}
      className={cn('shrink-0 text-muted-foreground', starred && 'text-amber-500', className)}
      onClick={() => {
        if (pending) return;
        const done = starred
          ? t('favourites.removed', { name: label })
          : t('favourites.added', { name: label });
        save.mutate(
          { service: favouriteKey.service, countryID: favouriteKey.countryID, starred: !starred },
          { onSuccess: () => toast.success(done), onError: (error) => toast.error(errorMessage(error)) },
        );
      }}
      {...rest}
    >
      <Star className={cn(starred && 'fill-current')} aria-hidden="true" />
    </Button>
  );
}
