import { formatUsd, ProtocolRefusal } from '@simcode/sms-activate-protocol';
import { usdCents } from './account';
import { SIM_SERVICES } from './catalog';
import { HOUR_MS, isLiveActivation, MINUTE_MS, type SimCore } from './engine-core';
import { extractCode, type GeneratedSms, verificationSms } from './messages';
import type { Delivery, SimActivation, SimSms } from './model';

const ACTIVATION_LIFETIME_MS = 20 * MINUTE_MS;
/**
 * Closed activations are kept this long for getStatus / getHistory, then forgotten: two days, so a
 * customer's nightly reconciliation of yesterday still finds every activation of it in the history.
 */
export const CLOSED_ACTIVATION_RETENTION_MS = 48 * HOUR_MS;

function lastCode(activation: SimActivation): string | null {
  for (let index = activation.sms.length - 1; index >= 0; index--) {
    const code = activation.sms[index]!.code;
    if (code !== null) return code;
  }
  return null;
}

/** Activations with the life cycle of docs/protocols.md A.5: purchase, status, setStatus, SMS, close. */
export class ActivationDesk {
  constructor(private readonly core: SimCore) {}

  buy(request: {
    service: string;
    countryId: number;
    operator?: string;
    maxPriceUsd?: number;
    resellerUserId?: string;
  }): SimActivation {
    const { core } = this;
    if (!SIM_SERVICES.includes(request.service)) throw new ProtocolRefusal('BAD_SERVICE');
    const country = core.country(request.countryId);
    const operator = core.operator(country, request.operator);
    // Without a ceiling a number sells at the listed price only; with one, at the cheapest price within it
    // that has numbers left (SMS-Activate's Free Price).
    const tiers = core
      .priceTiers(country, request.service)
      .map((tier, index) => ({ ...tier, index }))
      .slice(0, request.maxPriceUsd === undefined ? 1 : undefined)
      .filter((tier) => tier.stock > 0);
    if (tiers.length === 0) throw new ProtocolRefusal('NO_NUMBERS');
    const tier = tiers.find(
      (candidate) => candidate.priceUsd <= (request.maxPriceUsd ?? Number.POSITIVE_INFINITY),
    );
    if (!tier) throw new ProtocolRefusal('WRONG_MAX_PRICE', formatUsd(tiers[0]!.priceUsd));
    const costUsd = tier.priceUsd;
    core.assertCanPay(costUsd);
    const now = core.now();
    const receives = core.random.next() >= core.settings.noSmsRate;
    const activation: SimActivation = {
      id: String(core.state.nextActivationId),
      phoneNumber: core.freshNumber(country),
      service: request.service,
      countryId: country.providerId,
      operator,
      costUsd,
      createdAtMs: now,
      expiresAtMs: now + ACTIVATION_LIFETIME_MS,
      status: 'waiting',
      sms: [],
      nextSmsAtMs: receives ? core.scheduleSms(now) : null,
      closedAtMs: null,
      ...(request.resellerUserId ? { resellerUserId: request.resellerUserId } : {}),
    };
    core.dueBy(activation.expiresAtMs);
    core.state.nextActivationId += 1 + core.random.int(0, 40);
    core.state.activations[activation.id] = activation;
    const soldKey = core.soldKey(now, country, request.service, tier.index);
    core.state.sold[soldKey] = (core.state.sold[soldKey] ?? 0) + 1;
    core.moveBalance(-usdCents(costUsd));
    core.onChange(`activation:${activation.id}`);
    return activation;
  }

  activation(id: string | undefined): SimActivation {
    const activation = id === undefined ? undefined : this.core.state.activations[id];
    if (!activation) throw new ProtocolRefusal('NO_ACTIVATION');
    return activation;
  }

  liveActivations(): SimActivation[] {
    return Object.values(this.core.state.activations)
      .filter(isLiveActivation)
      .sort((left, right) => left.createdAtMs - right.createdAtMs);
  }

  /** Activations bought in [fromMs, toMs], live or closed (closed ones are kept for two days), newest first. */
  activationsBetween(fromMs: number, toMs: number): SimActivation[] {
    return Object.values(this.core.state.activations)
      .filter((activation) => activation.createdAtMs >= fromMs && activation.createdAtMs <= toMs)
      .sort((left, right) => right.createdAtMs - left.createdAtMs);
  }

  /** getStatus's answer, without the style: the same text in both. */
  statusText(activation: SimActivation): string {
    const code = lastCode(activation);
    switch (activation.status) {
      case 'waiting':
        return 'STATUS_WAIT_CODE';
      case 'retry':
        return `STATUS_WAIT_RETRY:${code ?? ''}`;
      case 'cancelled':
        return 'STATUS_CANCEL';
      // A finished activation keeps answering its code, as SMS-Activate does.
      case 'received':
      case 'finished':
        return `STATUS_OK:${code ?? ''}`;
    }
  }

  /**
   * setStatus: 1 ready, 3 another SMS, 6 finish, 8 cancel (-1 its legacy form). Moves the SMSHub/SMS-Activate
   * rules allow: 3 only once a code arrived, 8 only without one and after the first 2 minutes; 6 any time,
   * as SMS-Activate answers it: a finish without a code ends the number billed, not refunded.
   */
  setStatus(
    id: string | undefined,
    status: number,
  ): 'ACCESS_READY' | 'ACCESS_RETRY_GET' | 'ACCESS_ACTIVATION' | 'ACCESS_CANCEL' {
    const activation = this.activation(id);
    if (!isLiveActivation(activation)) throw new ProtocolRefusal('ACTIVATION_NOT_ACTIVE');
    const now = this.core.now();
    const hasCode = activation.sms.length > 0;
    switch (status) {
      case 1:
        if (activation.status !== 'waiting') throw new ProtocolRefusal('BAD_STATUS');
        return 'ACCESS_READY';
      case 3:
        if (!hasCode) throw new ProtocolRefusal('BAD_STATUS');
        if (activation.status !== 'retry') {
          activation.status = 'retry';
          activation.nextSmsAtMs = this.core.scheduleSms(now);
          this.core.onChange(`activation:${activation.id}`);
        }
        return 'ACCESS_RETRY_GET';
      case 6:
        this.close(activation, 'finished', now);
        return 'ACCESS_ACTIVATION';
      case -1:
      case 8:
        if (hasCode) throw new ProtocolRefusal('OTP_RECEIVED');
        if (now - activation.createdAtMs < this.core.settings.earlyCancelMs)
          throw new ProtocolRefusal('EARLY_CANCEL_DENIED');
        this.close(activation, 'cancelled', now);
        return 'ACCESS_CANCEL';
      default:
        throw new ProtocolRefusal('BAD_STATUS');
    }
  }

  /** 5sim's ban: the number is given back as a cancel is, and the order remembers it was banned. */
  ban(id: string | undefined): SimActivation {
    this.setStatus(id, 8);
    const activation = this.activation(id);
    activation.banned = true;
    this.core.onChange(`activation:${activation.id}`);
    return activation;
  }

  /** Ends the activation at `atMs`; a cancelled one is refunded in full. */
  close(activation: SimActivation, status: 'finished' | 'cancelled', atMs: number): void {
    this.core.releaseNumber(activation.phoneNumber);
    activation.status = status;
    activation.nextSmsAtMs = null;
    activation.closedAtMs = atMs;
    this.core.dueBy(atMs + CLOSED_ACTIVATION_RETENTION_MS + 1);
    if (status === 'cancelled') this.core.moveBalance(usdCents(activation.costUsd));
    this.core.onChange(`activation:${activation.id}`);
  }

  deliver(activation: SimActivation, generated: GeneratedSms, atMs: number): Delivery {
    const sms: SimSms = { ...generated, receivedAtMs: atMs };
    activation.sms.push(sms);
    activation.status = 'received';
    activation.nextSmsAtMs = null;
    this.core.onChange(`activation:${activation.id}`);
    return { type: 'activation', activation, sms };
  }

  /** The control API's "SMS now": text and code as given, or made up like a real one. */
  injectSms(id: string, text?: string, code?: string): Delivery {
    const activation = this.activation(id);
    if (!isLiveActivation(activation)) throw new ProtocolRefusal('ACTIVATION_NOT_ACTIVE');
    const generated = verificationSms(activation.service, this.core.random, code);
    const sms = text === undefined ? generated : { ...generated, text, code: code ?? extractCode(text) };
    return this.deliver(activation, sms, this.core.now());
  }
}
