import type { RentPeriod } from '@simcode/contract';
import { rentMessages } from '@simcode/contract';
import type { RentRow } from '../../../db/schema';
import { fail } from '../../../lib/errors';
import { holdMoney, type KeySpend } from '../hold';
import { placeOrder } from '../place-order';
import { callRentProvider, type RentDeps, recordRentCharge, rentsChanged } from './deps';
import { refundRent } from './refund';

export interface RentRequest {
  countryId: string;
  serviceKey: string;
  period: RentPeriod;
  /** Renewable rents only; on unless turned off. */
  autoRenew?: boolean;
  /**
   * Where the buyer wants this rent's SMS delivered (the protocol's `url`), already checked as a key's
   * callback URL is; only a rent made through a key has one.
   */
  webhookUrl?: string;
}

/**
 * Rents a number: the price from the providers' rent prices and our markup, the money held with the rent,
 * then the orders kernel places it with each provider that sells it at a cost the price covers, in routing
 * order, and settles or refunds it (the rules of a one-time purchase, ADR 0017).
 */
export async function rentNumber(
  deps: RentDeps,
  userId: number,
  request: RentRequest,
  through?: KeySpend,
): Promise<RentRow> {
  const { repository, clock, providers } = deps;
  const { period } = request;
  const quote = await deps.catalog.quote(request.countryId, request.serviceKey, period.hours);
  const rentId = await holdMoney(deps.db, {
    referenceType: 'rent',
    priceCents: quote.priceCents,
    through,
    insufficient: () => fail('insufficient_balance', rentMessages.insufficientBalance),
    insert: repository.pendingRentInsert({
      userId,
      // The cancel window and the reconciler count from here, on the same clock as everything else.
      createdAt: clock.now(),
      provider: quote.candidates[0]!.provider,
      countryId: quote.countryId,
      serviceKey: quote.option.key,
      service: quote.option.service,
      periodUnit: period.unit,
      periodCount: period.count,
      hours: period.hours,
      autoRenew: period.renewable && (request.autoRenew ?? true),
      priceCents: quote.priceCents,
      upstreamCost: quote.candidates[0]!.upstreamCost,
      apiKeyId: through?.apiKeyId,
      webhookUrl: through ? request.webhookUrl : undefined,
    }),
  });
  rentsChanged(deps, { userId, id: rentId }, true);

  const issued = await placeOrder(deps, {
    kind: 'rent',
    orderId: rentId,
    buyer: { userId, apiKeyId: through?.apiKeyId ?? null },
    candidates: quote.candidates,
    pair: { service: quote.option.service, countryId: quote.countryId },
    moveTo: async (candidate) =>
      (await repository.reassign(rentId, candidate.provider, candidate.upstreamCost, clock.now())) !==
      undefined,
    place: (candidate) =>
      providers.rentsOf(candidate.provider).rentNumber({
        service: quote.option.service,
        countryId: quote.countryId,
        hours: period.hours,
        webhookUrl: deps.webhookUrl(candidate.provider),
      }),
    refund: (reason) => refundRent(deps, rentId, { of: 'rent', from: ['pending'], to: 'failed', reason }),
    settle: (rented, _provider, calls) =>
      repository.markIssued(
        rentId,
        {
          providerRentId: rented.rentId,
          phoneNumber: rented.phoneNumber,
          endsAt: rented.endsAt,
          now: clock.now(),
        },
        calls,
      ),
    release: (rented, provider) =>
      callRentProvider(deps, { id: rentId, provider }, 'cancel', (upstream) =>
        upstream.cancelRent(rented.rentId),
      ),
  });
  rentsChanged(deps, issued);
  await recordRentCharge(deps, issued, issued.upstreamCost, 'first');
  return issued;
}
