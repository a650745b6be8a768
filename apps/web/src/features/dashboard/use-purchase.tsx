import { numberMessages, type PurchasedNumber, priceChangedBodySchema } from '@simcode/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useConfirmCharge } from '@/components/confirm-charge';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDollars } from '@/lib/format';
import { countryName, serviceInSentence } from '@/lib/names';
import { toastShortfall } from '@/lib/shortfall';
import { summaryQuery } from '@/lib/summary-query';
import { servicesQuery, useBuyNumber } from './api';

/** What a Buy button buys: a service in a country through an operator, at the price shown. */
interface Offer {
  service: string;
  serviceName: string;
  countryID: string;
  /** The catalog's English name (the request carries it; the dialog shows the reader's). */
  countryName: string;
  operator: string;
  /** Dollars, as shown beside the button: the most the purchase may charge without asking again. */
  price: number;
}

/** The new price of a purchase refused because the price went up since it was shown; null otherwise. */
function changedPrice(error: unknown): number | null {
  if (!(error instanceof ApiError)) return null;
  const refusal = priceChangedBodySchema.safeParse(error.body);
  return refusal.success ? refusal.data.price : null;
}

/**
 * The one purchase path of the dashboard, for both modes, favourites and recent purchases: the price is
 * asked for first, the purchase sends the price shown, and a price that went up since is asked for again
 * with both prices before anything is charged. Render `dialog` once; `bought` is the number the last purchase
 * got, for the page to show where the buyer is looking until `dismissBought`.
 */
export function usePurchase() {
  const { t } = useTranslation('dashboard');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const charge = useConfirmCharge();
  const summary = useQuery(summaryQuery);
  const purchase = useBuyNumber();
  const [bought, setBought] = useState<PurchasedNumber | null>(null);
  // What is being bought: its Buy button is busy and the others wait.
  const buying: Pick<Offer, 'service' | 'countryID'> | null = purchase.isPending ? purchase.variables : null;

  function question(offer: Offer, price: number) {
    return {
      title: t('buy.title', { service: serviceInSentence(offer.serviceName) }),
      description: t('buy.description', {
        country: countryName(offer.countryID, offer.countryName),
        service: offer.serviceName,
      }),
      price: formatDollars(price),
      action: t('buy.action'),
    };
  }

  async function buy(offer: Offer) {
    // The server checks again; this spares a request the answer is already known for.
    if (summary.data && summary.data.balance < offer.price) {
      toastShortfall(
        numberMessages.insufficientBalance,
        { priceDollars: offer.price, balanceDollars: summary.data.balance },
        () => navigate('/dashboard/topup'),
      );
      return;
    }
    if (!(await charge.confirm(question(offer, offer.price)))) return;
    let price = offer.price;
    try {
      // Asked again each time the price went up: a confirmed price is the most that is charged.
      for (;;) {
        try {
          const answer = await purchase.mutateAsync({
            country: offer.countryName,
            countryID: offer.countryID,
            operator: offer.operator,
            service: offer.service,
            price,
          });
          setBought(answer.number);
          break;
        } catch (error) {
          const newPrice = changedPrice(error);
          if (newPrice === null) throw error;
          const confirmed = await charge.confirm({
            ...question(offer, newPrice),
            title: t('priceChanged.title'),
            description: t('priceChanged.description', {
              old: formatDollars(price),
              new: formatDollars(newPrice),
            }),
          });
          if (!confirmed) {
            toast.info(t('priceChanged.notBought'));
            return;
          }
          price = newPrice;
        }
      }
      toast.success(numberMessages.purchased(offer.serviceName), {
        action: { label: t('buy.view'), onClick: () => navigate('/dashboard/numbers') },
      });
    } catch (error) {
      toast.error(errorMessage(error, numberMessages.purchaseFailed));
    }
  }

  /** A favourite or recent pair, bought again at today's price (looked up first, then asked for). */
  async function buyAgain(pair: Omit<Offer, 'price'>) {
    let price: number | undefined;
    try {
      const { services } = await queryClient.fetchQuery(servicesQuery(pair.countryID, pair.operator));
      price = services.find((offer) => offer.id === pair.service && offer.stock > 0)?.price;
    } catch (error) {
      toast.error(errorMessage(error));
      return;
    }
    if (price === undefined) {
      toast.error(
        t('favourites.notOnSale', {
          service: pair.serviceName,
          country: countryName(pair.countryID, pair.countryName),
        }),
      );
      return;
    }
    await buy({ ...pair, price });
  }

  return { buy, buyAgain, buying, bought, dismissBought: () => setBought(null), dialog: charge.dialog };
}
