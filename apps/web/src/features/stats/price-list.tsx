import { publicPriceMessages, type ServiceCountriesResponse } from '@simcode/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDollars, formatNumber } from '@/lib/format';
import { countryName } from '@/lib/names';
import { useSession } from '@/lib/session';
import { useOpenAnswer } from '@/lib/use-open-answer';

/** Countries shown before "Show all": the cheapest ones, enough to compare without a wall of rows. */
const FIRST_ROWS = 15;

/**
 * A service's public price list (issue 34): our price and the stock in every country selling it now,
 * cheapest first, readable without an account. "Buy" leads a visitor to sign-up and then, like a buyer, to
 * the dashboard's "By service" on this service, where the price shown is the price a purchase checks.
 */
export function PriceList({ service }: { service: string }) {
  const { isSignedIn } = useSession();
  const [showAll, setShowAll] = useState(false);
  const { data, failed } = useOpenAnswer<ServiceCountriesResponse>(
    `/api/v1/prices/${encodeURIComponent(service)}`,
  );
  if (failed || !data || data.countries.length === 0) return null;
  const offers = [...data.countries].filter((offer) => offer.stock > 0).sort((a, b) => a.price - b.price);
  if (offers.length === 0) return null;
  const shown = showAll ? offers : offers.slice(0, FIRST_ROWS);
  // A buyer lands on "By service" with this service chosen; a visitor signs up first and lands there after.
  const dashboard = `/dashboard?service=${encodeURIComponent(data.service.id)}`;
  const buyPath = isSignedIn ? dashboard : `/register?next=${encodeURIComponent(dashboard)}`;

  return (
    <section aria-labelledby="price-list" className="flex flex-col gap-3">
      <h2 id="price-list" className="text-xl font-bold text-slate-900">
        {publicPriceMessages.title(data.service.name)}
      </h2>
      <p className="text-sm text-slate-600">{publicPriceMessages.description}</p>
      <div className="overflow-hidden rounded-2xl border bg-white">
        <Table>
          <caption className="sr-only">{publicPriceMessages.title(data.service.name)}</caption>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{publicPriceMessages.country}</TableHead>
              <TableHead scope="col" className="text-right">
                {publicPriceMessages.price}
              </TableHead>
              <TableHead scope="col" className="text-right">
                {publicPriceMessages.stock}
              </TableHead>
              <TableHead scope="col">
                <span className="sr-only">{publicPriceMessages.buy}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map((offer) => (
              <TableRow key={offer.countryID} data-testid="price-row">
                <TableCell className="font-medium">{countryName(offer.code, offer.name)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatDollars(offer.price)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(offer.stock)}</TableCell>
                <TableCell className="text-right">
                  <Button asChild size="sm" variant="outline">
                    <Link
                      to={buyPath}
                      aria-label={publicPriceMessages.buyIn(
                        data.service.name,
                        countryName(offer.code, offer.name),
                      )}
                    >
                      {publicPriceMessages.buy}
                    </Link>
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {offers.length > FIRST_ROWS && !showAll && (
        <Button variant="outline" className="self-start" onClick={() => setShowAll(true)}>
          {publicPriceMessages.showAll(offers.length)}
        </Button>
      )}
    </section>
  );
}
