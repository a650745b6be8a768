import { numberMessages, type PurchasedNumber, priceChangedBodySchema } from '@simcode/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useConfirmCharge } from '@/components/confirm-charge';
import { accountQuery } from '@/lib/account-query';
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

/** At most this many numbers of one offer in one go: each is its own order, refunded on its own. */
export const MAX_NUMBERS_AT_ONCE = 10;

/**
 * The one purchase path of the dashboard, for both modes, favourites and recent purchases: the price (and
 * how many) is asked for first unless the account buys with one click, each purchase sends the price shown,
 * and a price that went up since is asked for again with both prices before anything is charged. Render
 * `dialog` once; `bought` are the numbers the last purchases got, newest first, for the page to show where
 * the buyer is looking until each is dismissed.
 */
export function usePurchase() {
  const { t } = useTranslation('dashboard');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const charge = useConfirmCharge();
  const summary = useQuery(summaryQuery);
  const account = useQuery(accountQuery);
  const purchase = useBuyNumber();
  const [bought, setBought] = useState<PurchasedNumber[]>([]);
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

  /** How many to buy: 1 without asking with one-click buying, else what the buyer confirmed (0: none). */
  function howMany(offer: Offer): Promise<number> {
    if (account.data?.account.one_click_buying) return Promise.resolve(1);
    const priceCents = Math.round(offer.price * 100);
    const affordable = summary.data ? Math.floor(Math.round(summary.data.balance * 100) / priceCents) : 1;
    return charge.confirmHowMany(question(offer, offer.price), {
      max: Math.max(1, Math.min(MAX_NUMBERS_AT_ONCE, affordable)),
      total: (quantity) => formatDollars((priceCents * quantity) / 100),
    });
  }

  /** One purchase at `price`, asked again each time the price went up; null when the buyer declined. */
  async function buyOne(
    offer: Offer,
    price: number,
  ): Promise<{ number: PurchasedNumber; price: number } | null> {
    for (;;) {
      try {
        const answer = await purchase.mutateAsync({
          country: offer.countryName,
          countryID: offer.countryID,
          operator: offer.operator,
          service: offer.service,
          price,
        });
        return { number: answer.number, price };
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
        if (!confirmed) return null;
        price = newPrice;
      }
    }
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
    const quantity = await howMany(offer);
    if (quantity === 0) return;
    let price = offer.price;
    let count = 0;
    try {
      // One after another, each its own order: a confirmed price is the most any of them is charged.
      for (; count < quantity; count += 1) {
        const result = await buyOne(offer, price);
        if (!result) {
          toast.info(t('priceChanged.notBought'));
          break;
        }
        price = result.price;
        setBought((shown) => [result.number, ...shown.filter((one) => one.id !== result.number.id)]);
      }
    } catch (error) {
      const reason = errorMessage(error, numberMessages.purchaseFailed);
      toast.error(count > 0 ? t('buy.boughtSome', { count, quantity, reason }) : reason);
      return;
    }
    if (count === 0) return;
    toast.success(
      count === 1
        ? numberMessages.purchased(offer.serviceName)
        : t('buy.boughtMany', { count, service: offer.serviceName }),
      { action: { label: t('buy.view'), onClick: () => navigate('/dashboard/numbers') } },
    );
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

  return {
    buy,
    buyAgain,
    buying,
    bought,
    dismissBought: (id: number) => setBought((shown) => shown.filter((one) => one.id !== id)),
    dialog: charge.dialog,
  };
}
